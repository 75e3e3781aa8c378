// Pointer and keyboard in, intents out. Reads the page (its geometry, a picker's value),
// never writes it: anything to show goes through an action to the store or the view.
//
// Pointer Events cover mouse, pen and touch alike. A touch pointer stays captured
// by the element it went down on, so the tile under the finger is found from the
// board's geometry on every move, not from event.target. A tile counts only when
// the pointer is inside a circle around its centre (HIT of the tile pitch), so a
// diagonal drag does not pick up the two tiles whose corners it passes between;
// fast moves are sampled along the segment so no tile is skipped.

/** A key that types a letter: one character, a letter of any alphabet. */
const LETTER = /^\p{L}$/u;
/** The powers' keys, as their buttons show them: digits, since letters spell. */
export const POWER_KEYS = Object.freeze({ 1: "shuffle", 2: "swap", 3: "hint", 4: "extend", 5: "pass" });

/** Where a key types into a field, not onto the board. */
const isField = (target) =>
  target instanceof Element && (target.closest("input, textarea, select, [contenteditable]:not([contenteditable=false])") !== null);

const HIT = 0.38; // radius of a tile's hit circle, as a fraction of the tile pitch
const STEP = 1 / 6; // sampling step along a move, as a fraction of the pitch

/**
 * @param {HTMLElement} board the element holding tiles with data-row / data-col
 * @param {object} actions press, enter, release, cancel, undo, activate(row, col, submit),
 *   moveFocus(dRow, dCol), canPlay(), size(), picking() (a swap's tile is being chosen),
 *   pickTile(row, col), dismiss() (Escape: put a swap away; true when there was one),
 *   suggesting() (a tap marks a tile for a 2v2 teammate), suggest(row, col),
 *   boardShown() (the board is on screen to play), spelling() (letters are being typed),
 *   typeLetter(key), cyclePath(step), unspell(), powerKey(name) (true when the power's
 *   button is on screen: the key is taken)
 */
export function bindInput(board, actions) {
  let drag = null; // {id, geometry, x, y, hover: [r, c] | null, started, refused, cancelled}

  function measure() {
    const n = actions.size();
    const first = board.querySelector('[data-row="0"][data-col="0"]');
    const last = board.querySelector(`[data-row="${n - 1}"][data-col="${n - 1}"]`);
    if (!first || !last || n < 2) return null;
    const a = first.getBoundingClientRect();
    const b = last.getBoundingClientRect();
    const ox = a.left + a.width / 2;
    const oy = a.top + a.height / 2;
    return {
      n,
      ox,
      oy,
      px: (b.left + b.width / 2 - ox) / (n - 1),
      py: (b.top + b.height / 2 - oy) / (n - 1),
      bounds: board.getBoundingClientRect(),
    };
  }

  /** The tile at a point: inside its hit circle (`strict`), or anywhere in its cell. */
  function locate(g, x, y, strict) {
    const col = Math.round((x - g.ox) / g.px);
    const row = Math.round((y - g.oy) / g.py);
    if (row < 0 || col < 0 || row >= g.n || col >= g.n) return null;
    const dx = (x - (g.ox + col * g.px)) / g.px;
    const dy = (y - (g.oy + row * g.py)) / g.py;
    if (strict ? Math.hypot(dx, dy) > HIT : Math.max(Math.abs(dx), Math.abs(dy)) > 0.5) return null;
    return [row, col];
  }

  const outside = (g, x, y) =>
    x < g.bounds.left || x > g.bounds.right || y < g.bounds.top || y > g.bounds.bottom;

  function touch(tile) {
    if (drag.refused) return;
    if (!drag.started) {
      // A refused press (another tab is playing, or the tile is being replaced) ends
      // the gesture: a chain starting on whatever tile the pointer reaches next would
      // not be the word the player meant.
      drag.started = actions.press(...tile);
      drag.refused = !drag.started;
    } else {
      actions.enter(...tile);
    }
  }

  function end(submit) {
    if (!drag) return;
    const { started, cancelled } = drag;
    drag = null;
    if (started && !cancelled) {
      if (submit) actions.release();
      else actions.cancel();
    }
  }

  board.addEventListener("pointerdown", (event) => {
    // Choosing a swap's tile: a tap picks it. A second finger may do it while the first
    // still holds a drag (a swap is allowed mid-word), so this comes before the drag checks.
    if (actions.picking() && actions.canPlay() && (event.pointerType !== "mouse" || event.button === 0)) {
      const geometry = measure();
      const tile = geometry && locate(geometry, event.clientX, event.clientY, false);
      if (tile) {
        event.preventDefault();
        actions.pickTile(...tile);
        return;
      }
    }
    if (drag || !event.isPrimary) return;
    if (event.pointerType === "mouse" && event.button !== 0) return;
    // A 2v2 on the teammate's turn: a tap marks the tile for them (a second tap unmarks it).
    if (actions.suggesting()) {
      const geometry = measure();
      const tile = geometry && locate(geometry, event.clientX, event.clientY, false);
      if (tile) {
        event.preventDefault();
        actions.suggest(...tile);
      }
      return;
    }
    if (!actions.canPlay()) return;
    const geometry = measure();
    if (!geometry) return;
    event.preventDefault(); // no text selection, no emulated mouse events
    drag = { id: event.pointerId, geometry, x: event.clientX, y: event.clientY, hover: null };
    drag.started = false;
    drag.refused = false;
    drag.cancelled = false;
    const tile = locate(geometry, event.clientX, event.clientY, false);
    if (tile) {
      drag.hover = tile;
      touch(tile);
    }
  });

  window.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.id || drag.cancelled) return;
    if (!actions.canPlay()) {
      drag = null; // the connection dropped: the server forgets nothing, but we stop here
      return;
    }
    const g = drag.geometry;
    const { clientX: x, clientY: y } = event;
    if (outside(g, x, y)) {
      // Dragging off the board drops the chain; releasing later does nothing.
      if (drag.started) actions.cancel();
      drag.cancelled = true;
      return;
    }
    const distance = Math.hypot(x - drag.x, y - drag.y);
    const steps = Math.max(1, Math.ceil(distance / (Math.min(g.px, g.py) * STEP)));
    for (let i = 1; i <= steps; i += 1) {
      const t = i / steps;
      const tile = locate(g, drag.x + (x - drag.x) * t, drag.y + (y - drag.y) * t, true);
      const same = tile && drag.hover && tile[0] === drag.hover[0] && tile[1] === drag.hover[1];
      if (tile && !same) touch(tile);
      drag.hover = tile;
      if (!drag) return;
    }
    drag.x = x;
    drag.y = y;
  });

  // The page scrolled under a finger that holds a word (a panel opened): measure again.
  window.addEventListener(
    "scroll",
    () => {
      if (drag) drag.geometry = measure() ?? drag.geometry;
    },
    { passive: true },
  );

  window.addEventListener("pointerup", (event) => {
    if (drag && event.pointerId === drag.id) end(true);
  });
  window.addEventListener("pointercancel", (event) => {
    if (drag && event.pointerId === drag.id) end(false);
  });
  window.addEventListener("blur", () => end(false));
  board.addEventListener("contextmenu", (event) => event.preventDefault());

  const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

  board.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const tile = event.target.closest?.("[data-row]");
    if (event.key in ARROWS) {
      event.preventDefault();
      actions.moveFocus(...ARROWS[event.key]);
    } else if ((event.key === " " || event.key === "Enter") && tile) {
      event.preventDefault();
      if (!event.repeat) actions.activate(Number(tile.dataset.row), Number(tile.dataset.col), event.key === "Enter");
    } else if (event.key === "Backspace") {
      event.preventDefault();
      actions.undo();
    }
  });

  // Type to spell, wherever the focus is but in a field: a letter spells on, Tab and
  // Shift+Tab cycle the paths, Backspace takes a letter back, Enter submits. Caught on
  // the way down (capture), so the board's own Enter and Backspace (for the arrow-key
  // play) do not act on the same key. Digits are the powers' shortcuts (POWER_KEYS).
  window.addEventListener(
    "keydown",
    (event) => {
      if (event.defaultPrevented || event.isComposing || event.altKey || event.ctrlKey || event.metaKey) return;
      if (isField(event.target) || !actions.boardShown()) return;
      const spelling = actions.spelling();
      if (LETTER.test(event.key)) {
        // A finger or the mouse holds a chain: the drag has it, not the keys.
        if (drag && drag.started && !drag.cancelled) return;
        event.preventDefault();
        event.stopPropagation();
        actions.typeLetter(event.key);
      } else if (event.key in POWER_KEYS && !event.shiftKey) {
        if (!actions.powerKey(POWER_KEYS[event.key])) return;
        event.preventDefault();
        event.stopPropagation();
      } else if (spelling && (event.key === "Tab" || event.key === "Enter" || event.key === "Backspace")) {
        event.preventDefault();
        event.stopPropagation();
        if (event.key === "Tab") actions.cyclePath(event.shiftKey ? -1 : 1);
        else if (event.key === "Backspace") actions.unspell();
        else if (!event.repeat) actions.release();
      }
    },
    { capture: true },
  );

  // Escape drops the chain wherever the focus is.
  window.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    if (actions.dismiss()) return; // a swap being chosen goes first; the chain stays
    if (drag) {
      const started = drag.started && !drag.cancelled;
      drag.cancelled = true;
      if (started) actions.cancel();
    } else {
      actions.cancel();
    }
  });
}

// How long the picker waits after a change made with the keyboard before starting a game.
const PICKER_SETTLE_MS = 800;

/**
 * The buttons and the word-list picker.
 *
 * Picking a list with the mouse or a finger starts a game with it at once. On a
 * closed, focused picker every arrow key or typed letter changes the value (and
 * fires `change`), so stepping through the lists would throw away one game per
 * step: a change made with a key starts the game only when the player commits to
 * it, by Enter, by leaving the picker, or by pausing for PICKER_SETTLE_MS. Stepping
 * back to the list being played starts nothing; Escape goes back to it.
 *
 * @param {object} actions newGame(wordlist), wordlist() (the list being played),
 *   showWordlist(name) (the view puts the picker back), release, reconnect, openGame(id)
 */
export function bindControls(root, actions, { settleMs = PICKER_SETTLE_MS } = {}) {
  const picker = root.querySelector('[data-testid="wordlist"]');
  let keyed = false; // a key is down on the picker: a change now comes from it
  let timer = null; // a change made with keys, waiting to be committed

  const settle = () => {
    clearTimeout(timer);
    timer = null;
  };
  const commit = () => {
    settle();
    if (picker.value !== actions.wordlist()) actions.newGame(picker.value);
  };

  picker.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      if (timer !== null) {
        event.preventDefault();
        commit();
      }
    } else if (event.key === "Escape") {
      if (timer !== null) {
        settle();
        actions.showWordlist(actions.wordlist());
      }
    } else if (event.key !== "Tab") {
      keyed = true; // the browser changes the value (and fires change) before keyup
    }
  });
  picker.addEventListener("keyup", () => {
    keyed = false;
  });
  picker.addEventListener("pointerdown", () => {
    keyed = false;
  });
  picker.addEventListener("blur", () => {
    keyed = false;
    if (timer !== null) commit();
  });
  picker.addEventListener("change", () => {
    const byKey = keyed;
    keyed = false;
    settle();
    if (byKey) timer = setTimeout(commit, settleMs);
    else actions.newGame(picker.value);
  });
  // The button, unlike the picker, says "play now": the board takes the focus (main.js).
  root.querySelector('[data-action="new-game"]').addEventListener("click", () => actions.newGame(picker.value, { play: true }));
  root.querySelector('[data-action="submit"]').addEventListener("click", () => actions.release());
  root.querySelector('[data-action="done"]').addEventListener("click", () => actions.done());
  root.querySelector('[data-testid="missed-words"]').addEventListener("click", (event) => {
    const button = event.target.closest?.("[data-missed]");
    if (button) actions.showMissed(Number(button.dataset.missed));
  });
  root.querySelector('[data-action="retry"]').addEventListener("click", () => actions.reconnect());
  root.querySelector('[data-testid="your-games"]').addEventListener("click", (event) => {
    const button = event.target.closest?.("[data-entry-id]");
    if (button) actions.openGame(button.dataset.entryId);
  });
}

/**
 * The match's buttons and settings, and the mode switch. Clicks are read where they
 * land (`data-*` names the intent), so buttons the view rebuilds need no new listeners.
 *
 * @param {object} actions chooseMode(mode), usePower(name), pass(), swapTo(letter), cancelSwap(),
 *   rematch(), showSetup(), addBot(), removeBot(i), setBotLevel(i, level), setRounds(n),
 *   setTimed(on), startMatch()
 */
export function bindMatchControls(root, actions) {
  const on = (selector, type, handler) => root.querySelector(selector).addEventListener(type, handler);
  on(".modes", "click", (event) => {
    const button = event.target.closest?.("[data-mode]");
    if (button) actions.chooseMode(button.dataset.mode);
  });
  onPress(root.querySelector('[data-testid="powers"]'), (button) => {
    if (button.dataset.power) actions.usePower(button.dataset.power);
    else if (button.dataset.action === "pass") actions.pass();
  });
  onPress(root.querySelector('[data-testid="swap-picker"]'), (button) => {
    if (button.dataset.letter) actions.swapTo(button.dataset.letter);
    else if (button.dataset.action === "cancel-swap") actions.cancelSwap();
  });
  on('[data-action="rematch"]', "click", () => actions.rematch());
  on('[data-action="new-match"]', "click", () => actions.showSetup());
  on('[data-action="endless"]', "click", () => actions.chooseMode("endless"));

  const form = root.querySelector('[data-testid="match-form"]');
  form.addEventListener("click", (event) => {
    const button = event.target.closest?.("button");
    if (!button) return;
    if (button.dataset.action === "add-bot") actions.addBot();
    else if (button.dataset.removeBot !== undefined) actions.removeBot(Number(button.dataset.removeBot));
  });
  form.addEventListener("change", (event) => {
    const field = event.target;
    if (field.dataset.botLevel !== undefined) actions.setBotLevel(Number(field.dataset.botLevel), field.value);
    else if (field.name === "rounds") actions.setRounds(field.value);
    else if (field.name === "timed") actions.setTimed(field.checked);
    else if (field.name === "classic") actions.setClassic(field.checked);
    else if (field.name === "wordlist") actions.setMatchWordlist(field.value);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    // A number still being typed has not fired "change" yet: take it as it stands.
    actions.setRounds(form.elements.rounds.value);
    actions.startMatch();
  });
}

/**
 * A button inside `container` was pressed: a click (mouse, keyboard, a finger), or a
 * second finger lifted from it while the first still drags a word. Browsers make no
 * click of a touch while another touch is down, and a swap is allowed mid-drag, so
 * the powers and the letters listen for that lift too (once: a click that might
 * follow it is ignored).
 */
function onPress(container, handler) {
  let pressed = null; // the button a second finger just pressed, and when
  const press = (event) => {
    const button = event.target.closest?.("button");
    if (button && !button.disabled && container.contains(button)) handler(button);
    return button;
  };
  container.addEventListener("pointerup", (event) => {
    if (event.pointerType !== "touch" || event.isPrimary) return;
    pressed = { button: press(event), at: event.timeStamp };
  });
  container.addEventListener("click", (event) => {
    const twice = pressed && pressed.button === event.target.closest?.("button") && event.timeStamp - pressed.at < 800;
    pressed = null;
    if (!twice) press(event);
  });
}

/**
 * Playing with friends: the create and name forms, a room's seats and rules, and leaving.
 * As with the match's controls, clicks and changes are read where they land (`data-*`
 * names the intent), so the seats the view rebuilds need no new listeners.
 *
 * @param {object} actions enterName(text), goToRoom(code), takeSeat(i), leaveSeat(), setSeatBot(i, level),
 *   setSeatSpeed(i, speed), removeSeat(i), setRules({rounds|timed|wordlist|standIn|classic|mode}), startRoomMatch(),
 *   copyLink(), selectLink(), leaveRoom(), showLobby(on)
 */
export function bindRoomControls(root, actions) {
  const nameForm = root.querySelector('[data-testid="room-name-form"]');
  nameForm.addEventListener("submit", (event) => {
    event.preventDefault();
    actions.enterName(nameForm.elements.name.value);
  });
  const codeForm = root.querySelector('[data-testid="room-code-form"]');
  codeForm.addEventListener("submit", (event) => {
    event.preventDefault();
    actions.goToRoom(codeForm.elements.code.value);
  });

  const room = root.querySelector('[data-testid="room"]');
  room.addEventListener("click", (event) => {
    const button = event.target.closest?.("button");
    if (!button || button.disabled) return;
    const data = button.dataset;
    if (data.takeSeat !== undefined) actions.takeSeat(Number(data.takeSeat));
    else if (data.addBot !== undefined) actions.setSeatBot(Number(data.addBot), "easy");
    else if (data.removeSeat !== undefined) actions.removeSeat(Number(data.removeSeat));
    else if (data.action === "room-start") actions.startRoomMatch();
    else if (data.action === "leave-seat") actions.leaveSeat();
    else if (data.action === "room-results") actions.showLobby(false);
    else if (data.action === "copy-link") actions.copyLink();
  });
  room.addEventListener("change", (event) => {
    const field = event.target;
    if (field.dataset.seatLevel !== undefined) actions.setSeatBot(Number(field.dataset.seatLevel), field.value);
    else if (field.dataset.seatSpeed !== undefined) actions.setSeatSpeed(Number(field.dataset.seatSpeed), field.value);
    else if (field.name === "room-rounds") actions.setRules({ rounds: field.value });
    else if (field.name === "room-timed") actions.setRules({ timed: field.checked });
    else if (field.name === "room-classic") actions.setRules({ classic: field.checked });
    else if (field.name === "room-wordlist") actions.setRules({ wordlist: field.value });
    else if (field.name === "room-stand-in") actions.setRules({ standIn: field.value });
    else if (field.name === "room-mode") actions.setRules({ mode: field.value });
    else if (field.name === "room-race-seconds") actions.setRules({ raceSeconds: field.value });
  });
  // Enter in the rounds field: take the number as it stands (no "change" has fired yet).
  root.querySelector('[data-testid="room-rules-form"]').addEventListener("submit", (event) => {
    event.preventDefault();
    actions.setRules({ rounds: event.target.elements["room-rounds"].value });
  });
  // The link's field selects itself whole, to copy by hand where the clipboard is not allowed.
  root.querySelector('[data-testid="room-link"]').addEventListener("focus", () => actions.selectLink());

  for (const button of root.querySelectorAll('[data-action="leave-room"]')) {
    button.addEventListener("click", () => actions.leaveRoom());
  }
  root.querySelector('[data-action="room-lobby"]').addEventListener("click", () => actions.showLobby(true));
  // A race: Watch beside a runner; a word nobody found lights its path; race again; the lobby.
  root.querySelector('[data-testid="race-standings"]').addEventListener("click", (event) => {
    const button = event.target.closest("button[data-follow]");
    if (button) actions.follow(Number(button.dataset.follow));
  });
  root.querySelector('[data-testid="race-missed"]').addEventListener("click", (event) => {
    const button = event.target.closest("button[data-race-missed]");
    if (button) actions.showRaceMissed(Number(button.dataset.raceMissed));
  });
  root.querySelector('[data-action="race-again"]').addEventListener("click", () => actions.raceAgain());
  root.querySelector('[data-action="race-lobby"]').addEventListener("click", () => actions.showLobby(true));
}

/**
 * The daily board's form and buttons: play under a name, share a result, play the day again.
 *
 * @param {object} actions playDaily(name), shareDaily(), replayDaily()
 */
export function bindDailyControls(root, actions) {
  const form = root.querySelector('[data-testid="daily-form"]');
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    actions.playDaily(form.elements.name.value);
  });
  root.querySelector('[data-action="share-daily"]').addEventListener("click", () => actions.shareDaily());
  root.querySelector('[data-action="replay-daily"]').addEventListener("click", () => actions.replayDaily());
}

/**
 * The settings form: each change is one setting.
 *
 * @param {object} actions setSetting({name: value}) (sound and vibration true or false, theme its name)
 */
export function bindSettingsControls(root, actions) {
  const form = root.querySelector('[data-testid="settings-form"]');
  form.addEventListener("submit", (event) => event.preventDefault());
  form.addEventListener("change", (event) => {
    const input = event.target;
    if (input.name === "sound" || input.name === "vibration") actions.setSetting({ [input.name]: input.checked });
    else if (input.name === "theme" && input.checked) actions.setSetting({ theme: input.value });
  });
}
