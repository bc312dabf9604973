// The cases of the fields a contract FILE adds (issue 38), from the mock's classification: a new
// request field of createLink whose name is also a Link field is sent and must come back equal (and
// an update that sends another value changes it); the new Link fields are present when FILE
// requires them (and, like every answer, valid against FILE).
import type { Check } from './check-types.js';
import type { CheckContext } from './context.js';
import { fieldCandidates } from './field-values.js';
import type { NextContract } from './next-contract.js';

export function fieldChecks(next: NextContract): Check[] {
  const { fields } = next.classes;
  const sentBack = (of: string) => fields.filter((field) => field.of === of && field.served === 'request').map((field) => field.name);
  const onUpdate = new Set(sentBack('updateLink'));
  const linkFields = fields.filter((field) => field.of === 'Link' && field.served === 'generated');
  return [
    ...sentBack('createLink').flatMap((name) => [createCheck(next, name), ...(onUpdate.has(name) ? [updateCheck(next, name)] : [])]),
    ...(linkFields.length > 0 ? [linkFieldsCheck(linkFields.filter((field) => field.required).map((field) => field.name), linkFields.map((field) => field.name))] : []),
  ];
}

/** The first `count` distinct values of the field that FILE's validation of `operationId`'s request allows in `body`. */
function allowedValues(ctx: CheckContext, next: NextContract, operationId: string, name: string, body: Record<string, unknown>, count: number): unknown[] {
  const allowed = fieldCandidates(next.document, operationId, name).filter((value) => ctx.checker.requestBodyProblems(operationId, { ...body, [name]: value }).length === 0);
  if (allowed.length < count) ctx.notChecked(`cannot make ${count === 1 ? 'a value' : `${count} different values`} of ${operationId}'s new field '${name}' that FILE allows: give it an example`);
  return allowed.slice(0, count);
}

function createCheck(next: NextContract, name: string): Check {
  return {
    id: `createLink-201-new-field-${name}`,
    operationId: 'createLink',
    expectedStatus: 201,
    title: `sends the new request field '${name}' (also a Link field): 201, and the Link has the value sent`,
    async run(ctx) {
      const label = `new-${name}`.slice(0, 20);
      const [value] = allowedValues(ctx, next, 'createLink', name, ctx.linkBody(label), 1);
      const link = await ctx.createLink(label, { [name]: value });
      ctx.expectEqual((link as unknown as Record<string, unknown>)[name], value, `'${name}' of the created link`, link.exchange);
    },
  };
}

function updateCheck(next: NextContract, name: string): Check {
  return {
    id: `updateLink-200-new-field-${name}`,
    operationId: 'updateLink',
    expectedStatus: 200,
    title: `updates the new field '${name}': 200, and the Link has the new value`,
    async run(ctx) {
      const label = `upd-${name}`.slice(0, 20);
      const [first] = allowedValues(ctx, next, 'createLink', name, ctx.linkBody(label), 1);
      const second = allowedValues(ctx, next, 'updateLink', name, {}, 2).find((value) => JSON.stringify(value) !== JSON.stringify(first));
      if (second === undefined) ctx.notChecked(`cannot make a value of updateLink's new field '${name}' other than the one created with`);
      const link = await ctx.createLink(label, { [name]: first });
      const { body, exchange } = await ctx.call('updateLink', { id: link.id, json: { [name]: second }, expect: 200, what: `a new '${name}'` });
      ctx.expectEqual((body as Record<string, unknown>)[name], second, `'${name}' after the update`, exchange);
    },
  };
}

function linkFieldsCheck(required: string[], all: string[]): Check {
  return {
    id: 'createLink-201-new-link-fields',
    operationId: 'createLink',
    expectedStatus: 201,
    title: `the Link fields FILE adds (${all.join(', ')}) are valid by FILE${required.length > 0 ? `, and the required ones (${required.join(', ')}) are present` : ''}`,
    async run(ctx) {
      // ctx.call judges the whole answer by FILE, new fields included; presence is checked here too so the reason names the field.
      const link = (await ctx.createLink('new-link-fields')) as unknown as Record<string, unknown> & { exchange: never };
      const missing = required.filter((name) => !(name in link));
      if (missing.length > 0) ctx.fail(`the created Link lacks the field${missing.length > 1 ? 's' : ''} FILE requires: ${missing.join(', ')}`, link.exchange);
      const present = all.filter((name) => name in link);
      return `present: ${present.length > 0 ? present.join(', ') : 'none (all optional)'}`;
    },
  };
}
