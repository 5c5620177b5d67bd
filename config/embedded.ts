import Joi from 'joi';
import { ConfigError } from './index';

/** Where `npm run services:start` puts its servers unless told otherwise. */
export const DEFAULT_EMBEDDED_ELASTICSEARCH_PORT = 9250;
export const DEFAULT_EMBEDDED_MONGO_PORT = 27050;
/** The folder under `.services/` holding their state and Elasticsearch's data. */
export const DEFAULT_EMBEDDED_INSTANCE = 'dev';

/**
 * Settings of the embedded development servers (`npm run services:*`, and `npm start`, the worker
 * and the ops scripts when they look for them). Never read by the production entry points.
 */
export interface EmbeddedSettings {
  elasticsearchPort: number;
  mongoPort: number;
  instance: string;
}

const port = () => Joi.number().integer().min(1).max(65535);

const schema = Joi.object({
  EMBEDDED_ELASTICSEARCH_PORT: port().default(DEFAULT_EMBEDDED_ELASTICSEARCH_PORT),
  EMBEDDED_MONGO_PORT: port().default(DEFAULT_EMBEDDED_MONGO_PORT),
  EMBEDDED_INSTANCE: Joi.string()
    .pattern(/^[a-z0-9][a-z0-9_-]{0,40}$/)
    .invalid('cache')
    .default(DEFAULT_EMBEDDED_INSTANCE),
}).unknown(true);

/** Reads and validates them from `env`; a bad one throws a ConfigError naming it. */
export function loadEmbeddedSettings(env: NodeJS.ProcessEnv = process.env): EmbeddedSettings {
  const { value, error } = schema.validate(env, { abortEarly: true, convert: true });
  if (error) {
    const detail = error.details[0];
    throw new ConfigError(`invalid setting ${detail?.path.join('.')}: ${detail?.message}`);
  }
  const v = value as Record<string, never>;
  if (v.EMBEDDED_ELASTICSEARCH_PORT === v.EMBEDDED_MONGO_PORT)
    throw new ConfigError('invalid setting EMBEDDED_MONGO_PORT: it must differ from EMBEDDED_ELASTICSEARCH_PORT');
  return {
    elasticsearchPort: v.EMBEDDED_ELASTICSEARCH_PORT,
    mongoPort: v.EMBEDDED_MONGO_PORT,
    instance: v.EMBEDDED_INSTANCE,
  };
}
