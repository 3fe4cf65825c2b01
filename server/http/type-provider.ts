/**
 * The REST routes' type provider (Fastify type providers, as fastify/demo does it): a route's
 * `schema` is the one description of its wire shapes, so the handler's `request.body`, `params`,
 * `query` and its answer are typed from that schema (common/json-schema.ts, the same derivation
 * common/contract.ts types its request and response shapes with). No route writes its types by
 * hand next to its schema.
 *
 * A route plugin is a `RoutePlugin`. Fastify's `register` does not hand the provider down, so a
 * nested group (`app.register(async (group: RouteInstance) => ...)`) names its instance's type.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyPluginAsync, FastifyPluginOptions, FastifyTypeProvider, RawServerDefault } from 'fastify';
import type { FromSchema, FromValidatedSchema } from '../../common/json-schema';

export interface SchemaTypeProvider extends FastifyTypeProvider {
  /** A request as validated: defaults filled in (Ajv `useDefaults`, server/app.ts). */
  validator: FromValidatedSchema<this['schema']>;
  serializer: FromSchema<this['schema']>;
}

/** A plugin of REST routes typed from their schemas. */
export type RoutePlugin<Options extends FastifyPluginOptions = Record<never, never>> = FastifyPluginAsync<Options, RawServerDefault, SchemaTypeProvider>;

/** The instance a RoutePlugin (or a group registered inside one) receives. */
export type RouteInstance = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, SchemaTypeProvider>;
