// "Your games": the games and matches this browser started or opened, kept in web
// storage so a reload or a lost connection can resume them. No DOM.

/** How many entries "Your games" keeps (the oldest beyond it are forgotten here, not on the server). */
export const MAX_SAVED_GAMES = 30;

/** The storage key of "Your games" (and, in session storage, of this tab's game or match). */
export const GAMES_KEY = "wibble.games";
const OLD_KEY = "wibble.game"; // before the list, a browser kept its one game here

/** The id an entry is known by: a match's `match_id`, a game's `game_id`. */
export const idOf = (entry) => (entry?.kind === "match" ? entry.match_id : entry?.game_id);

export const isMatchEntry = (entry) => entry?.kind === "match";

const isRef = (ref) => typeof idOf(ref) === "string" && typeof ref?.token === "string";

/** An entry as read back: only known fields, of the right types (storage is anyone's to edit). */
function clean(entry) {
  const common = {
    token: entry.token,
    wordlist: String(entry.wordlist ?? ""),
    title: String(entry.title ?? ""),
    played: Number(entry.played) || 0,
  };
  if (isMatchEntry(entry)) {
    return {
      kind: "match",
      match_id: entry.match_id,
      ...common,
      score: Number(entry.score) || 0,
      round: Number(entry.round) || 1,
      rounds: Number(entry.rounds) || 1,
      over: Boolean(entry.over),
    };
  }
  // Games keep the shape they always had (no `kind`), so older pages read them alike.
  return {
    game_id: entry.game_id,
    ...common,
    total: Number(entry.total) || 0,
    words: Number(entry.words) || 0,
  };
}

/**
 * This browser's games and matches: every one it started or opened, newest first, in
 * `local` storage (shared by its tabs), and the one this tab plays in `session`
 * storage (its own, kept across a reload). Starting a game in one tab never takes
 * another tab's away: each resumes its own, and every one stays in the list.
 * Quiet when storage is unavailable (private mode, full, blocked): the game still
 * plays, it just will not resume.
 */
export function savedGames(local, session, { key = GAMES_KEY, now = () => Date.now() } = {}) {
  const read = (storage, name) => {
    try {
      return JSON.parse(storage?.getItem(name) ?? "null");
    } catch {
      return null;
    }
  };
  const write = (storage, name, value) => {
    try {
      storage.setItem(name, JSON.stringify(value));
      return true;
    } catch {
      return false;
    }
  };
  const list = () => {
    let games = read(local, key);
    if (!Array.isArray(games)) {
      // A browser from before the list: carry its one game over (save() then drops the old key).
      const single = read(local, OLD_KEY);
      games = isRef(single) ? [{ ...single, played: 0 }] : [];
    }
    return games
      .filter(isRef)
      .map(clean)
      .sort((a, b) => b.played - a.played)
      .slice(0, MAX_SAVED_GAMES);
  };
  return {
    list,
    /** The entry this tab was playing (across a reload), else the newest in the list, else null. */
    current() {
      const games = list();
      const mine = read(session, key);
      return games.find((game) => idOf(game) === mine) ?? games[0] ?? null;
    },
    /** Add or update an entry (and make it this tab's); true when it will resume on the next visit. */
    save(game) {
      const games = list();
      const id = idOf(game);
      const old = games.find((entry) => idOf(entry) === id);
      const entry = { ...old, ...game, played: now() };
      if (!isRef(entry)) return false;
      const rest = games.filter((other) => idOf(other) !== id);
      write(session, key, id);
      const saved = write(local, key, [entry, ...rest].slice(0, MAX_SAVED_GAMES));
      if (saved) {
        try {
          local.removeItem(OLD_KEY);
        } catch {
          // as in write()
        }
      }
      return saved;
    },
    /** Drop an entry the server no longer has. */
    forget(id) {
      write(local, key, list().filter((game) => idOf(game) !== id));
    },
  };
}

// -- rooms ---------------------------------------------------------------------------------

/** The storage key of this browser's rooms: `{CODE: {token, name, at}}`; `token` is null once the seat is gone. */
export const ROOMS_KEY = "wibble.rooms";
/** The display name this browser last used in a room, offered again next time. */
export const NAME_KEY = "wibble.name";
/** How long a room joined is offered to go back to (a room closes once left empty). */
const LATEST_MS = 24 * 3600 * 1000;
/** How many rooms are remembered (the oldest are forgotten here; rooms close when left empty anyway). */
export const MAX_SAVED_ROOMS = 20;

/**
 * The rooms this browser joined, and the seat token of each it holds a seat in, in
 * `local` storage: a room's link opened in any tab, or after a reload or a restart,
 * takes the same seat back. An entry without a token means "been here, watching": the
 * page joins again without asking for a name. Quiet when storage is unavailable.
 */
export function savedRooms(local, { key = ROOMS_KEY, nameKey = NAME_KEY, now = () => Date.now() } = {}) {
  const all = () => {
    try {
      const rooms = JSON.parse(local?.getItem(key) ?? "null");
      return rooms !== null && typeof rooms === "object" && !Array.isArray(rooms) ? rooms : {};
    } catch {
      return {};
    }
  };
  const write = (name, value) => {
    try {
      local.setItem(name, value);
      return true;
    } catch {
      return false;
    }
  };
  return {
    /** `{token, name}` for a room joined before (`token` null when watching), else null. */
    get(code) {
      const entry = Object.hasOwn(all(), code) ? all()[code] : null;
      if (entry === null || typeof entry !== "object") return null;
      return {
        token: typeof entry.token === "string" && entry.token ? entry.token : null,
        name: typeof entry.name === "string" ? entry.name : "",
      };
    },
    /** Remember a room, with the token of the seat held in it (null: watching) and the name used. */
    save(code, token, name = "") {
      const rooms = { ...all(), [code]: { token: token || null, name: String(name ?? ""), at: now() } };
      const kept = Object.entries(rooms)
        .sort(([, a], [, b]) => (Number(b?.at) || 0) - (Number(a?.at) || 0))
        .slice(0, MAX_SAVED_ROOMS);
      return write(key, JSON.stringify(Object.fromEntries(kept)));
    },
    /** The room joined last, within a day, in which this browser still holds a seat: `{code, name}`, or null. */
    latest() {
      const since = now() - LATEST_MS;
      const held = Object.entries(all())
        .filter(([code, entry]) => /^[A-Z0-9]{1,8}$/.test(code) && typeof entry?.token === "string" && entry.token)
        .filter(([, entry]) => (Number(entry.at) || 0) >= since)
        .sort(([, a], [, b]) => (Number(b?.at) || 0) - (Number(a?.at) || 0));
      if (held.length === 0) return null;
      const [code, entry] = held[0];
      return { code, name: typeof entry.name === "string" ? entry.name : "" };
    },
    forget(code) {
      const rooms = all();
      delete rooms[code];
      return write(key, JSON.stringify(rooms));
    },
    /** The name last used, or "". */
    name() {
      try {
        const name = local?.getItem(nameKey);
        return typeof name === "string" ? name : "";
      } catch {
        return "";
      }
    },
    setName(name) {
      return write(nameKey, name);
    },
  };
}
