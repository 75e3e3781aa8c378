// The Stats view's controls: the header's Stats button, and in the view Close, Export and
// Import (its file picker). Like input.js, this only turns what the player does into the
// actions main.js hands it; the view draws, the memory (stats.js) keeps.

import { MAX_FILE_BYTES } from "./store/stats.js";

/**
 * @param {Document} root the page
 * @param {{openStats, closeStats, exportStats, pickStatsFile, importStats: (file: {text}|{error}) => void}} actions
 *   `importStats` gets the picked file's text, or why it has none (too big to be ours: not read at all).
 */
export function bindStatsControls(root, actions) {
  root.querySelector('[data-action="open-stats"]').addEventListener("click", () => actions.openStats());
  const dialog = root.querySelector('[data-testid="stats"]');
  dialog.addEventListener("click", (event) => {
    const action = event.target.closest("[data-action]")?.dataset.action;
    if (action === "close-stats") actions.closeStats();
    else if (action === "export-stats") actions.exportStats();
    else if (action === "import-stats") actions.pickStatsFile();
  });
  dialog.querySelector('[data-testid="stats-file"]').addEventListener("change", async (event) => {
    const [file] = event.target.files ?? [];
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) return actions.importStats({ error: "too_big" });
    let picked;
    try {
      picked = { text: await file.text() };
    } catch {
      picked = { error: "unreadable" };
    }
    actions.importStats(picked);
  });
}
