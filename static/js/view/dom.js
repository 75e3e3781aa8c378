// The two ways the page's panels write elements: a new element with its text, and a text
// changed only when it differs. Text is always textContent: whatever the server or another
// player sent is shown as text, never read as markup.

/** A new `tag` element of `className` (if any) holding `text` (if any). */
export function make(document, tag, className = "", text = undefined) {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}

/** Put `text` in `element`, unless it is there already (no needless layout, no lost selection). */
export function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}
