// Tiny DOM helpers. Data only ever reaches the page through textContent and attributes, never
// through innerHTML, so nothing the mock records (paths, bodies, names) can inject markup.

/** $('id') → the element with that id (throws early when the page and the script disagree). */
export function $(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`console: #${id} is missing from index.html`);
  return element;
}

/**
 * h('td', { className: 'x', dataset: { seq: '1' }, 'aria-label': '…' }, 'text', childNode)
 * Strings become text nodes; null/undefined/false children are skipped.
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'dataset') Object.assign(element.dataset, value);
    else if (name === 'className') element.className = value;
    else if (name === 'onclick') element.addEventListener('click', value);
    else if (name in element && !name.includes('-')) element[name] = value;
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/**
 * The note under a list: index.html says "Loading…" until the first data arrives (so an empty
 * list is never claimed before it is known); from then on `text`, shown only while `empty`.
 */
export function emptyNote(id, empty, text) {
  const note = $(id);
  note.textContent = text;
  note.hidden = !empty;
}

/** Runs `fn` at most once per `ms`, trailing: bursts of events make one refresh. */
export function debounce(fn, ms) {
  let timer;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(fn, ms);
  };
}

const statusLine = () => $('status');
const errorLine = () => $('error');

/** A short, polite confirmation of what just happened. */
export function say(text) {
  errorLine().textContent = '';
  statusLine().textContent = text;
}

/** An error the user should see (role=alert). */
export function complain(error) {
  errorLine().textContent = error instanceof Error ? error.message : String(error);
}

/** Wraps an async action: disables the button while it runs and reports failures. */
export async function busy(button, action) {
  if (button) button.disabled = true;
  try {
    return await action();
  } catch (error) {
    if (!(error && error.unauthorized)) complain(error);
    return undefined;
  } finally {
    if (button) button.disabled = false;
  }
}
