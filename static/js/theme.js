// The chosen theme, on <html> before the page is first drawn: a plain script (not a module,
// which runs only after the page is parsed and maybe painted), loaded in <head> of every page,
// so a player who chose Dark never sees a light page flash first. It reads what settings.js
// keeps; view/settings.js applies later changes. (tests/js/theme.test.js runs it.)
(function () {
  var theme = null;
  try {
    theme = JSON.parse(window.localStorage.getItem("wibble.settings") || "null");
    theme = theme && theme.theme;
  } catch (error) {
    theme = null; // storage blocked, or not ours to read: the system's theme
  }
  if (theme === "light" || theme === "dark") document.documentElement.setAttribute("data-theme", theme);
})();
