/**
 * The management GraphQL schema (spec §7.1): the service query and the two network mutations.
 * Field names are the spec's; the types mirror common/contract.ts. googleLogin / microsoftLogin live in
 * social-login.ts, merged in by plugin.ts.
 */
export const managementSchema = /* GraphQL */ `
  type Network {
    name: String!
    identifier: String!
    image: String!
    isActive: Boolean!
    isDefault: Boolean!
  }

  type Service {
    id: ID!
    siteInternalName: String!
    isLaunched: Boolean!
    networks: [Network!]!
    serviceName: String!
    serviceType: String!
    serviceTypes: [String!]!
    templateName: String!
    languageCode: String!
    forceLogin: Boolean!
    isMonetizationModelEnabled: Boolean!
    domainName: String!
    siteBaseUrl: String!
    backendUrl: String!
  }

  type NetworkPublishResult {
    success: Boolean!
  }

  type NetworkCopyResult {
    success: Boolean!
    network: Network!
  }

  input NetworkBrandInput {
    logoAndIcons: Boolean!
    theme: Boolean!
    themeOtt: Boolean!
    themeApps: Boolean!
  }

  input NetworkCopyInput {
    site: String!
    network: String!
    networkBrand: NetworkBrandInput
    networkSettings: Boolean
  }

  type Query {
    serviceGet(site: String!): Service!
  }

  type Mutation {
    networkPublish(site: String!, network: String!): NetworkPublishResult!
    networkCopyFromDefault(req: NetworkCopyInput!): NetworkCopyResult!
  }
`;
