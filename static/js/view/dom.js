// The ways the page's panels write elements: a new element with its text, and a text,
// attribute, data-* value, property or `hidden` changed only when it differs. Text is always
// textContent: whatever the server or another player sent is shown as text, never read as
// markup. Writing a value an element already has is not free: the browser restyles it (for
// `hidden` and `lang`, its whole subtree) and lays out again what it touched, on every render.

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

/**
 * Show `value` (a whole number within 1-`most`) in the number field `field`, but not while it is
 * being typed in: it shows what is typed until it is left. A number typed past what the page
 * would send (50 rounds, sent as 20) is put right at once, so it never reads as what was set.
 */
export function setNumberField(field, value, most) {
  const typed = Number(field.value);
  // (An empty field, or a 0, is a number being typed: the page sends neither, and leaves it be.)
  const typing = field.ownerDocument.activeElement === field && !(Number.isFinite(typed) && typed > most);
  if (!typing && field.value !== String(value)) field.value = String(value);
}

/** Hide or show `element`, unless it is so already. */
export function setHidden(element, hidden) {
  if (element.hidden !== hidden) element.hidden = hidden;
}

/** Set attribute `name` to `value` (a string), or remove it (null), unless it is so already. */
export function setAttr(element, name, value) {
  if (value === null) {
    if (element.hasAttribute(name)) element.removeAttribute(name);
  } else if (element.getAttribute(name) !== value) {
    element.setAttribute(name, value);
  }
}

/** Set `data-*` value `key` (camelCase) to `value`, or delete it (undefined), unless it is so already. */
export function setData(element, key, value) {
  if (value === undefined) {
    if (key in element.dataset) delete element.dataset[key];
  } else if (element.dataset[key] !== value) {
    element.dataset[key] = value;
  }
}

/** Set property `name` (`disabled`, `lang`, `title`…) to `value`, unless it has it already. */
export function setProp(element, name, value) {
  if (element[name] !== value) element[name] = value;
}

/** Fill `select` with an option for each word list (`{name, title}`): the page's three pickers. */
export function addWordlistOptions(select, wordlists) {
  for (const { name, title } of wordlists) {
    const option = make(select.ownerDocument, "option", "", title);
    option.value = name;
    select.append(option);
  }
}
