// The settings panel (sound, vibration, theme) and the theme on the page: owns the settings
// form's elements and the root element's data-theme. The values are settings.js's.

import { SETTINGS_WORDING } from "./wording.js";

/** Show `theme` ("system", "light" or "dark") on the page: the CSS reads <html data-theme>. */
export function applyTheme(root, theme) {
  const html = root.documentElement;
  if (theme === "light" || theme === "dark") html.dataset.theme = theme;
  else delete html.dataset.theme;
}

export class SettingsPanel {
  /** @param {Document} root the page; `vibrates` whether this browser can vibrate */
  constructor(root, { vibrates }) {
    this.root = root;
    this.form = root.querySelector('[data-testid="settings-form"]');
    this.sound = this.form.elements.namedItem("sound");
    this.vibration = this.form.elements.namedItem("vibration");
    this.themes = [...this.form.querySelectorAll('input[name="theme"]')];
    this.vibrates = vibrates;
    const help = root.querySelector('[data-testid="vibration-help"]');
    help.textContent = vibrates ? SETTINGS_WORDING.vibrationHelp : SETTINGS_WORDING.noVibration;
    this.vibration.disabled = !vibrates;
  }

  render(values) {
    this.sound.checked = values.sound;
    this.vibration.checked = values.vibration && this.vibrates;
    for (const radio of this.themes) radio.checked = radio.value === values.theme;
    applyTheme(this.root, values.theme);
  }
}
