// The offline page's one script: the theme chosen in the game's settings (it has no panel).

import { themeOf } from "./settings.js";
import { applyTheme } from "./view/settings.js";

applyTheme(document, themeOf(() => window.localStorage));
