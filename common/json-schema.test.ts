import { describe, expectTypeOf, it } from 'vitest';
import type { FromSchema, FromValidatedSchema } from './json-schema';
import type { AuditQuery, CreateStaffRequest, StaffListQuery, UpdateStaffRequest } from './admin-contract';
import { CONTENT_SCHEMAS, type BulkStatus, type ContentBulkStatusRequest, type ContentKind, type ContentListQuery, type ContentSort, type ContentStatus, type ContentUpdateRequest } from './content';
import type { HeartbeatEvent, PlayerDeviceType, SessionEndEvent, SessionStartEvent } from './ingest-contract';
import { SCHEMAS, type GenerateOtpResponse, type LoginResponse, type Roles, type SiteProfile } from './contract';

describe('FromSchema: the wire types are derived from the schemas', () => {
  it('required properties are required, others optional, enums and nulls kept', () => {
    const _schema = {
      type: 'object',
      required: ['id', 'kind'],
      properties: {
        id: { type: 'string' },
        kind: { type: 'string', enum: ['vod', 'live'] },
        count: { type: 'integer' },
        tags: { type: 'array', items: { type: 'string' } },
        extra: { type: ['object', 'null'], additionalProperties: true },
        tag: { const: 'fixed' },
        level: { enum: ['low', 'high'] },
      },
    } as const;
    expectTypeOf<FromSchema<typeof _schema>>().toEqualTypeOf<{
      id: string;
      kind: 'vod' | 'live';
      count?: number;
      tags?: string[];
      extra?: Record<string, unknown> | null;
      tag?: 'fixed';
      level?: 'low' | 'high';
    }>();
  });

  it('the contract types follow their schemas', () => {
    expectTypeOf<LoginResponse['accessToken']>().toEqualTypeOf<string>();
    expectTypeOf<GenerateOtpResponse['retryAfterSeconds']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<SiteProfile['contributorData']>().toEqualTypeOf<Record<string, unknown> | null>();
    expectTypeOf<SiteProfile['domainName']>().toEqualTypeOf<string[]>();
    expectTypeOf<FromSchema<typeof SCHEMAS.login>>().toEqualTypeOf<{ username: string; password: string; deviceId?: string }>();
  });

  it('the Admin request types follow ADMIN_SCHEMAS, roles narrowed to our areas and levels', () => {
    expectTypeOf<StaffListQuery>().toEqualTypeOf<{ search?: string; page?: number; pageSize?: number }>();
    expectTypeOf<AuditQuery>().toEqualTypeOf<{ who?: string; action?: string; from?: string; to?: string; page?: number; pageSize?: number }>();
    expectTypeOf<CreateStaffRequest['roles']>().toEqualTypeOf<Roles>();
    expectTypeOf<Omit<CreateStaffRequest, 'roles'>>().toEqualTypeOf<{ email: string; displayName: string; phoneNumber: string; twoFactorOnLogin: boolean }>();
    expectTypeOf<UpdateStaffRequest['version']>().toEqualTypeOf<number>();
  });

  it('the content request types follow CONTENT_SCHEMAS, enums kept', () => {
    expectTypeOf<ContentListQuery>().toEqualTypeOf<{
      mediaType?: ContentKind; start?: number; limit?: number; max?: number; q?: string; status?: ContentStatus; sort?: ContentSort;
    }>();
    expectTypeOf<ContentUpdateRequest>().toEqualTypeOf<{
      version: number; title?: string; description?: string; genre?: string; tags?: string[]; status?: ContentStatus; scheduledAt?: string | null;
      rating?: string; originalLanguage?: string; releaseDate?: string | null; artworkUrl?: string; posterUrl?: string;
    }>();
    expectTypeOf<ContentBulkStatusRequest>().toEqualTypeOf<{ status: BulkStatus; items: { id: string; version: number }[] }>();
  });

  it('the player event types follow PLAYER_EVENT_SCHEMAS', () => {
    expectTypeOf<SessionStartEvent>().toEqualTypeOf<{
      eventId: string; sessionId: string; at: string; type: 'session.start'; subscriberId: string; contentId: string; networkId?: string; deviceType: PlayerDeviceType;
      deviceId?: string; country: string; isp: string; cdn: string; startupMs: number;
      os?: string; osVersion?: string; browser?: string; playerName?: string; playerVersion?: string; appVersion?: string;
      region?: string; streamType?: 'vod' | 'live'; sourceHost?: string;
    }>();
    expectTypeOf<HeartbeatEvent>().toEqualTypeOf<{
      eventId: string; sessionId: string; at: string; type: 'heartbeat'; playheadSeconds: number; watchedSeconds: number; bitrateKbps: number; rebufferCount: number; rebufferMs: number;
    }>();
    expectTypeOf<SessionEndEvent>().toEqualTypeOf<{
      eventId: string; sessionId: string; at: string; type: 'session.end'; watchedSeconds: number; rebufferCount: number; rebufferMs: number; avgBitrateKbps?: number; errorCode?: string;
    }>();
  });
});

describe('FromValidatedSchema: a request as the server validated it (server/http/type-provider.ts)', () => {
  it('a property with a default is present (Ajv useDefaults fills it in), the others as FromSchema has them', () => {
    expectTypeOf<FromValidatedSchema<typeof CONTENT_SCHEMAS.listQuery>>().toEqualTypeOf<{
      mediaType?: ContentKind; start: number; limit: number; max: number; q: string; status?: ContentStatus; sort: ContentSort;
    }>();
    const _nested = {
      type: 'object',
      properties: { page: { type: 'object', properties: { size: { type: 'integer', default: 10 }, from: { type: 'integer' } } } },
    } as const;
    expectTypeOf<FromValidatedSchema<typeof _nested>>().toEqualTypeOf<{ page?: { size: number; from?: number } }>();
    expectTypeOf<FromSchema<typeof _nested>>().toEqualTypeOf<{ page?: { size?: number; from?: number } }>();
    expectTypeOf<FromValidatedSchema<typeof SCHEMAS.login>>().toEqualTypeOf<FromSchema<typeof SCHEMAS.login>>();
  });
});
