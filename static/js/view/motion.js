// The page's motion: short animations, none at all for a player who asks for reduced motion.
// Every panel animates through here, so that one setting stops them all.

let reduceQuery; // asked once: its `matches` follows the setting, and each matchMedia() costs a few ms at every word on a slow phone
export const reducedMotion = () => {
  reduceQuery ??= window.matchMedia?.("(prefers-reduced-motion: reduce)") ?? null;
  return reduceQuery?.matches;
};

/** Play `keyframes` on `element` for `duration` ms (after `delay`), unless motion is reduced. */
export function animate(element, keyframes, duration, delay = 0) {
  if (reducedMotion() || !element.animate) return;
  element.animate(keyframes, { duration, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
}

/** A number that just changed grows for a moment. */
export function pulse(element) {
  animate(element, [{ transform: "scale(1.25)" }, { transform: "none" }], 300);
}

/** New letters drop into the tiles at `changed` ([row, col] each), one after another. */
export function dropIn(tiles, changed) {
  changed.forEach(([r, c], i) => {
    const tile = tiles[r]?.[c];
    if (!tile) return;
    animate(tile, [
      { opacity: 0, transform: "translateY(-35%) scale(0.7)" },
      { opacity: 1, transform: "translateY(4%) scale(1.03)", offset: 0.7 },
      { opacity: 1, transform: "none" },
    ], 340, Math.min(i, 12) * 45);
  });
}
