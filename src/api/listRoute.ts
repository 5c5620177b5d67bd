import type { Config } from '../../config';
import { PLURAL, type RecordKind } from '../domain/kinds';
import { sendPage, type ListPage } from '../http/listPage';
import { route, type InputSchema } from '../http/route';
import type { RouteSpec } from '../http/types';
import type { Caller } from '../services/queries/eventList';

/** `GET /{plural}`: `list` finds the page (in the search index) for the caller, `sendPage` answers it. */
export function listRoute<I extends object>(
  config: Pick<Config, 'apiUrl'>,
  kind: RecordKind,
  spec: { description: string; input: InputSchema<I> },
  list: (input: I, caller: Caller) => Promise<ListPage>,
): RouteSpec {
  const plural = PLURAL[kind];
  return route({
    methods: ['GET'],
    path: `/${plural}`,
    resource: plural,
    summary: `List ${plural}`,
    description: spec.description,
    access: 'read',
    input: spec.input,
    response: plural,
    errors: [400, 404, 503],
    handler: async (ctx) => {
      const caller = { lang: ctx.state.language, principal: ctx.state.principal };
      sendPage(ctx, config, kind, await list(ctx.input, caller));
    },
  });
}
