// Tiny DOM helpers: build elements from data, never from HTML strings (player names are text).

const PROPERTIES = new Set(['value', 'checked', 'disabled', 'hidden', 'selected', 'open']);

/** h('button', {class: 'big', onClick}, 'text', child, [more]) -> a new element. */
export function h(tag, props, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    setProp(element, key, value);
  }
  append(element, children);
  return element;
}

function setProp(element, key, value) {
  if (value === undefined || value === null) return;
  if (key.startsWith('on') && typeof value === 'function') {
    element.addEventListener(key.slice(2).toLowerCase(), value);
  } else if (key === 'class') {
    element.className = value;
  } else if (key === 'testid') {
    element.dataset.testid = value;
  } else if (key === 'dataset') {
    Object.assign(element.dataset, value);
  } else if (PROPERTIES.has(key)) {
    element[key] = value;
  } else if (value !== false) {
    element.setAttribute(key, value === true ? '' : String(value));
  }
}

/** Append strings, numbers, nodes and (nested) arrays of them; null and false are skipped. */
export function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/** Replace everything inside `parent` by `children`. */
export function replace(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}
