// The composition root: read the page's config, wire the parts together, connect.

import { Connection, socketUrl } from "./connection.js";
import { dailyMemory } from "./daily.js";
import { Definitions } from "./definitions.js";
import {
  bindControls,
  bindDailyControls,
  bindInput,
  bindMatchControls,
  bindRoomControls,
  bindSettingsControls,
} from "./input.js";
import { registerServiceWorker } from "./install.js";
import { canSuggest } from "./match.js";
import { parseSeed } from "./protocol.js";
import { SETTINGS_KEY, Settings } from "./settings.js";
import { Feedback } from "./sound.js";
import { statsMemory } from "./stats.js";
import { bindStatsControls } from "./stats_controls.js";
import { GAMES_KEY, Store, savedGames, savedRooms } from "./store.js";
import { View } from "./view.js";
import { DefinitionPanel } from "./view/definition.js";
import { SettingsPanel } from "./view/settings.js";
import { StatsPanel } from "./view/stats.js";

const config = JSON.parse(document.getElementById("wibble-config").textContent);
const params = new URLSearchParams(window.location.search);
const start = { wordlist: params.get("wordlist") || null, seed: parseSeed(params.get("seed")) };

// Either may be blocked (a privacy setting throws on access): the game plays but does not resume.
const storageOf = (name) => {
  try {
    return window[name];
  } catch {
    return null;
  }
};

const connection = new Connection(socketUrl(window.location), {
  onOpen: () => store.onOpen(),
  // A word's definition (or its refusal) is the popover's, not the game's.
  onMessage: (message) => definitions.receive(message) || store.onMessage(message),
  onStatus: (status) => store.onStatus(status),
});
const store = new Store({
  send: (message) => connection.send(message),
  storage: savedGames(storageOf("localStorage"), storageOf("sessionStorage")),
  rooms: savedRooms(storageOf("localStorage")),
  daily: dailyMemory(storageOf("localStorage")),
  config,
  start: config.room ? null : start,
});
const view = new View(document, config, { now: store.now });
const definitions = new Definitions((message) => connection.send(message));
/** The list of the words on screen: the match's in a match (or a room's), else the game's. */
const wordlistOnScreen = () => {
  const { mode, match, game } = store.state;
  return ((mode === "match" || mode === "room") && match?.wordlist) || game?.wordlist || config.default_wordlist;
};
new DefinitionPanel(document, {
  ask: (word, wordlist) => definitions.ask(word, wordlist),
  wordlist: wordlistOnScreen,
  titleOf: (name) => config.wordlists.find((list) => list.name === name)?.title ?? name,
});
store.subscribe((state, event) => view.render(state, event, store.canPlay));

// Settings (sound, vibration, theme): drawn first, so the chosen theme shows as soon as it can.
const settings = new Settings(storageOf("localStorage"));
const canVibrate = typeof navigator.vibrate === "function";
const settingsPanel = new SettingsPanel(document, { vibrates: canVibrate });
settingsPanel.render(settings.values);
settings.subscribe((values) => settingsPanel.render(values));
const AudioContextClass = window.AudioContext ?? window.webkitAudioContext ?? null;
const feedback = new Feedback({
  settings,
  audio: AudioContextClass ? () => new AudioContextClass() : null,
  // Only once the player has touched the page: before that the browser blocks it (and says so).
  vibrate: canVibrate ? (pattern) => (navigator.userActivation?.hasBeenActive ?? true) && navigator.vibrate(pattern) : null,
});
store.subscribe((state, event) => feedback.onEvent(state, event));
// The clock's last seconds tick on the player's own timed turn.
setInterval(() => feedback.onClock(store.state, store.now()), 250);

/** The address bar without some of its parameters (a reload must not ask for them again). */
function dropParams(...names) {
  const url = new URL(window.location.href);
  for (const name of names) url.searchParams.delete(name);
  window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
}

// Your numbers (stats.js): each game as the server told it, kept in this browser, and the
// Stats view on them (redrawn if a game is recorded while it is open).
const stats = statsMemory(storageOf("localStorage"));
store.subscribe((state, event) => stats.onEvent(state, event));
const statsPanel = new StatsPanel(document);
stats.subscribe(() => statsPanel.isOpen && statsPanel.render(stats.summary()));
bindStatsControls(document, {
  openStats: () => statsPanel.open(stats.summary()),
  closeStats: () => statsPanel.close(),
  exportStats: () => statsPanel.download(stats.exportFile()),
  pickStatsFile: () => statsPanel.pickFile(),
  importStats: (file) => statsPanel.imported(file.error ? file : stats.importText(file.text), stats.summary()),
});

// Once the game asked for by ?seed= or ?wordlist= has started and been saved, drop
// those parameters from the address bar, so that a reload resumes it instead of
// starting it over.
store.subscribe((state, event) => {
  if (event.type !== "game" || !event.fromUrl || !event.saved) return;
  dropParams("seed", "wordlist");
});

// A room: once made, the address bar shows its link (a reload joins it again, and it is the
// link to share); leaving it, or another mode from a room's page, goes to that page.
store.subscribe((state, event) => {
  if (event.type === "room" && event.created) {
    window.history.replaceState(window.history.state, "", `/r/${encodeURIComponent(event.code)}`);
  } else if (event.type === "leave_page") {
    const { room, mode } = event.to;
    const page = { match: "/?mode=match", daily: "/daily" }[mode] ?? "/";
    window.location.assign(room ? `/r/${encodeURIComponent(room)}` : page);
  }
});
// "/?mode=match" (the Match button of a room's page): this page's Match, once a game is on screen.
if (params.get("mode") === "match" && !config.room) {
  const off = store.subscribe((state, event) => {
    if (event.type !== "game" && event.type !== "match") return;
    off();
    dropParams("mode");
    queueMicrotask(() => store.chooseMode("match"));
  });
}

/** The copy button: the clipboard where the page may use it, else the link selected to copy by hand. */
async function copyLink() {
  const code = store.state.room?.code;
  if (!code) return;
  try {
    await navigator.clipboard.writeText(view.room.link(code));
    store.room.linkCopied(true);
  } catch {
    view.room.selectLink();
    store.room.linkCopied(false);
  }
}

// After New game, Start match or Rematch, the focus goes to the board once it is there:
// the next thing the player does is play (by keys too), not hunt for the board with Tab.
let focusBoard = false;
const thenBoard = (started) => {
  if (started) focusBoard = true;
  return started;
};
store.subscribe((state, event) => {
  if (event.type === "error") focusBoard = false; // refused: no board is coming
  if (!focusBoard || !((event.type === "game" || event.type === "match") && event.fresh)) return;
  focusBoard = false;
  view.focusBoard();
});

/** Share a daily result: the phone's share sheet where there is one, else the clipboard. */
async function shareDaily() {
  const text = view.daily.shareText(store.state, new URL("/daily", window.location.href).href);
  if (!text) return;
  const phone = typeof navigator.share === "function" && window.matchMedia?.("(pointer: coarse)").matches;
  try {
    if (phone) {
      await navigator.share({ text });
      store.dailyShared("shared");
    } else {
      await navigator.clipboard.writeText(text);
      store.dailyShared("copied");
    }
  } catch (error) {
    if (error?.name !== "AbortError") store.dailyShared("failed"); // a sheet closed unshared says nothing
  }
}

const actions = {
  press: (row, col) => store.press(row, col),
  enter: (row, col) => store.enter(row, col),
  release: () => store.release(),
  cancel: () => store.match.clearSuggestions() || store.cancel(), // (Escape: a 2v2's marks go first)
  undo: () => store.undo(),
  // Space or Enter on a tile: in a 2v2 on the teammate's turn it marks the tile for them.
  activate: (row, col, submit) =>
    canSuggest(store.state.match) ? store.match.suggest(row, col) : store.activate(row, col, submit),
  newGame: (wordlist, { play = false } = {}) => {
    const started = store.newGame(wordlist, view.sprint.chosen());
    return play ? thenBoard(started) : started;
  },
  showMissed: (index) => store.showMissed(index),
  done: () => store.done(),
  playDaily: (name) => thenBoard(store.playDaily(name)),
  replayDaily: () => thenBoard(store.replayDaily()),
  shareDaily: () => shareDaily(),
  openGame: (id) => store.openGame(id),
  wordlist: () => store.state.game?.wordlist ?? null,
  showWordlist: (name) => view.endless.showWordlist(name),
  reconnect: () => connection.reconnectNow(),
  moveFocus: (dRow, dCol) => view.board.moveFocus(dRow, dCol),
  canPlay: () => store.canPlay,
  size: () => view.board.size,
  // a match
  picking: () => store.state.swap !== null,
  pickTile: (row, col) => store.match.pickSwapTile(row, col),
  suggesting: () => store.canPlay && canSuggest(store.state.match),
  suggest: (row, col) => store.match.suggest(row, col),
  dismiss: () => store.dismiss(),
  // type to spell
  boardShown: () => view.boardShown() && !statsPanel.isOpen, // (the Stats dialog covers it: keys are the dialog's)
  spelling: () => store.spelling,
  typeLetter: (key) => store.typeLetter(key),
  cyclePath: (step) => store.cyclePath(step),
  unspell: () => store.unspell(),
  powerKey: (name) => view.boardShown() && view.match.powerShown(name) && (name === "pass" ? store.match.pass() : store.match.usePower(name), true),
  chooseMode: (mode) => store.chooseMode(mode),
  usePower: (power) => store.match.usePower(power),
  pass: () => store.match.pass(),
  swapTo: (letter) => store.match.swapTo(letter),
  cancelSwap: () => store.match.cancelSwap(),
  rematch: () => thenBoard(store.match.rematch()),
  showSetup: () => store.match.showSetup(),
  addBot: () => store.match.addBot(),
  removeBot: (index) => store.match.removeBot(index),
  setBotLevel: (index, level) => store.match.setBotLevel(index, level),
  setRounds: (rounds) => store.match.setRounds(rounds),
  setTimed: (timed) => store.match.setTimed(timed),
  setClassic: (classic) => store.match.setClassic(classic),
  setMatchWordlist: (name) => store.match.setWordlist(name),
  startMatch: () => thenBoard(store.match.startMatch()),
  // a room
  enterName: (text) => store.room.enterName(text),
  goToRoom: (code) => store.room.goToRoom(code),
  takeSeat: (seat) => store.room.takeSeat(seat),
  leaveSeat: () => store.room.leaveSeat(),
  setSeatBot: (seat, level) => store.room.setSeatBot(seat, level),
  setSeatSpeed: (seat, speed) => store.room.setSeatSpeed(seat, speed),
  removeSeat: (seat) => store.room.removeSeat(seat),
  setRules: (rules) => store.room.setRules(rules),
  startRoomMatch: () => thenBoard(store.room.startRoomMatch()),
  leaveRoom: () => store.room.leaveRoom(),
  showLobby: (on) => store.room.showLobby(on),
  follow: (seat) => store.room.follow(seat),
  showRaceMissed: (index) => store.room.showRaceMissed(index),
  raceAgain: () => thenBoard(store.room.rematchRoom()),
  copyLink: () => copyLink(),
  selectLink: () => view.room.selectLink(),
  // settings
  setSetting: (changes) => {
    settings.set(changes);
    if (changes.sound === true) feedback.unlock(); // in the click that turned it on: audio may start
  },
};
bindInput(view.board.element, actions);
bindControls(document, actions);
bindMatchControls(document, actions);
bindRoomControls(document, actions);
bindDailyControls(document, actions);
bindSettingsControls(document, actions);
window.addEventListener("online", () => connection.reconnectNow());
// "Your games" follows the other tabs, and its "… ago" labels the clock.
window.addEventListener("storage", (event) => {
  if (event.key === null || event.key === GAMES_KEY) store.refreshGames();
  if (event.key === null || event.key === SETTINGS_KEY) settings.refresh();
});
setInterval(() => store.refreshGames(), 60_000);
window.addEventListener("offline", () => connection.drop());

view.render(store.state);
if (config.refused_host) {
  // The server will refuse this page's websocket (the name it was opened by is not one it
  // trusts): say so and why, rather than retry for ever.
  connection.stop();
  store.onStatus({ state: "refused", host: config.refused_host, lost: false });
} else {
  connection.start();
}
registerServiceWorker();
window.wibble = { store, connection, settings }; // for poking at in the console; nothing depends on it
