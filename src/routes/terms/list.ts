import { PLURAL, type TermKind } from '../../domain/kinds';
import { sentParams } from '../../http/listPage';
import type { RouteSpec } from '../../http/types';
import { listTerms, termListSchema, type TermListInput } from '../../search/termList';
import type { Services } from '../../services';
import { listRoute } from '../listRoute';

/** `GET /categories` or `GET /tags`: empty terms hidden unless asked for. */
export function termListRoutes(services: Services, kind: TermKind): RouteSpec[] {
  const description = `Event ${PLURAL[kind]} in the request language (each in its original language when not translated), ordered by name unless orderby says otherwise; empty ones hidden unless hide_empty=false.`;
  return [
    listRoute<TermListInput>(services.config, kind, { description, input: termListSchema(kind) }, (ctx) => {
      const caller = { lang: ctx.state.language, principal: ctx.state.principal };
      return listTerms(services, kind, ctx.input, caller, sentParams(ctx));
    }),
  ];
}
