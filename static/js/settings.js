// The player's settings: sound, vibration and theme, kept in this browser's localStorage.
// No DOM: view/settings.js draws the panel and applies the theme; sound.js plays the cues.
// Sound starts off (a page that beeps unasked is a page people close); vibration starts on,
// since it only ever happens on a device that can, and only once sound or not is chosen.

/** The storage key of the settings: `{sound, vibration, theme}`. */
export const SETTINGS_KEY = "wibble.settings";

export const THEMES = Object.freeze(["system", "light", "dark"]);

export const DEFAULTS = Object.freeze({ sound: false, vibration: true, theme: "system" });

/** Settings as read back: each known field of the right type, else its default (storage is
 * anyone's to edit, and an older page may have written fewer fields). */
export function settingsOf(value) {
  const given = value && typeof value === "object" ? value : {};
  return {
    sound: typeof given.sound === "boolean" ? given.sound : DEFAULTS.sound,
    vibration: typeof given.vibration === "boolean" ? given.vibration : DEFAULTS.vibration,
    theme: THEMES.includes(given.theme) ? given.theme : DEFAULTS.theme,
  };
}

/**
 * The settings of this browser, and who wants to hear of a change. Quiet when storage is
 * unavailable (private mode, blocked): the settings then hold for this page only.
 */
export class Settings {
  /** @param {Storage|null} storage localStorage, or null */
  constructor(storage) {
    this.storage = storage;
    this.listeners = [];
    this.values = settingsOf(this.read());
  }

  read() {
    try {
      return JSON.parse(this.storage?.getItem(SETTINGS_KEY) ?? "null");
    } catch {
      return null;
    }
  }

  get sound() {
    return this.values.sound;
  }

  get vibration() {
    return this.values.vibration;
  }

  get theme() {
    return this.values.theme;
  }

  /** Change some settings (unknown names and bad values are ignored), keep them, and tell. */
  set(changes) {
    const next = settingsOf({ ...this.values, ...changes });
    const changed = Object.keys(next).filter((key) => next[key] !== this.values[key]);
    if (changed.length === 0) return false;
    this.values = next;
    try {
      this.storage?.setItem(SETTINGS_KEY, JSON.stringify(next));
    } catch {
      // full or blocked: the change holds until the page is closed
    }
    for (const listener of this.listeners) listener(next, changed);
    return true;
  }

  /** Another tab changed them (a `storage` event): read them again, and tell if they differ. */
  refresh() {
    const next = settingsOf(this.read());
    const changed = Object.keys(next).filter((key) => next[key] !== this.values[key]);
    this.values = next;
    if (changed.length) for (const listener of this.listeners) listener(next, changed);
  }

  /** Call `listener(values, changedNames)` after each change; returns the unsubscribe. */
  subscribe(listener) {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }
}
