// The contract view: how the contract served is answered (GET /__admin/contract; D32). Each
// operation by rule, from the store, generated from its schema, or gone; and each field a contract
// FILE (--contract) adds or removes, with its JSON pointer in FILE. With --watch the contract may be
// swapped in while the page is open: the view is read again on demand and when the tab comes back.
import { api } from './api.js';
import { $, emptyNote, h } from './dom.js';

const OPERATION_LABELS = { rule: 'by rule', store: 'from the store', generated: 'generated from the schema', gone: 'gone' };
const FIELD_LABELS = { generated: 'generated and stored', request: 'stored from the request', ignored: 'validated, not stored', gone: 'gone' };

export async function refreshContract() {
  renderContract(await api('GET', '/contract'));
}

function renderContract({ file, version, operations, fields }) {
  $('contract-file').textContent = file ?? 'openapi.yaml (shipped)';
  $('contract-version').textContent = version || '—';
  $('contract-operations-body').replaceChildren(
    ...operations.map((operation) =>
      h(
        'tr',
        { dataset: { operation: operation.operationId, served: operation.served } },
        h('th', { scope: 'row' }, h('span', { className: 'op' }, operation.operationId)),
        h('td', {}, operation.method),
        h('td', { className: 'wrap' }, operation.path),
        h('td', { dataset: { col: 'served' }, className: `served-${operation.served}` }, OPERATION_LABELS[operation.served] ?? operation.served, readNote(operation)),
      ),
    ),
  );
  emptyNote('contract-fields-empty', fields.length === 0, 'No field added or removed: every field is served as the shipped contract has it.');
  $('contract-fields-body').replaceChildren(
    ...fields.map((field) =>
      h(
        'tr',
        { dataset: { field: `${field.of}.${field.name}`, served: field.served } },
        h('th', { scope: 'row' }, `${field.of}.${field.name}`),
        h('td', { dataset: { col: 'served' }, className: `served-${field.served}` }, FIELD_LABELS[field.served] ?? field.served),
        h('td', { dataset: { col: 'pointer' }, className: 'wrap' }, h('code', {}, field.pointer)),
      ),
    ),
  );
}

/** "one link" / "a list (in items)" under an operation read from the store. */
function readNote(operation) {
  if (operation.read === 'one') return h('span', { className: 'muted block' }, 'one link');
  if (operation.read === 'list') return h('span', { className: 'muted block' }, operation.itemsField ? `a list (in ${operation.itemsField})` : 'a list');
  return null;
}
