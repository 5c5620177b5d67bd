import type { Config } from '../../config';
import type { AppContext } from './types';
import { NAMESPACE_PATH } from '../domain/recordUrls';

/**
 * The REST root under the request's language prefix, at the configured public address
 * (`PUBLIC_API_URL`), e.g. `https://api.example.org/fr/calendar/events/v1`: the base records'
 * `rest_url`s use too. Never the request's Host header, which a client or a proxy may set to
 * anything (and a shared cache would then hand those links to others).
 */
export function restRoot(ctx: AppContext, config: Pick<Config, 'apiUrl'>): string {
  const prefix = ctx.state.pathLanguage ? `/${ctx.state.pathLanguage}` : '';
  return `${config.apiUrl}${prefix}${NAMESPACE_PATH}`;
}
