import type { Config } from '../../config';
import type { PresentEnv } from './environment';

/** The presenters' environment (API and site roots, site time zone and language) from the configuration. */
export function presentEnvOf(config: Config): PresentEnv {
  return {
    apiUrl: config.apiUrl,
    siteUrl: config.siteUrl,
    timezone: config.defaultTimezone,
    defaultLanguage: config.defaultLanguage,
  };
}
