/**
 * A simple cost limit for the management GraphQL endpoint: every selected field costs one, fragments
 * included each time they are spread, and a document may cost at most MAX_QUERY_COST. Together with
 * Mercurius' depth limit this stops alias floods and fragment bombs before any resolver runs.
 */
import { GraphQLError, Kind, NoSchemaIntrospectionCustomRule, type ASTNode, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext, type ValidationRule } from 'graphql';

export const MAX_QUERY_DEPTH = 6;
export const MAX_QUERY_COST = 150;
export const QUERY_TOO_COMPLEX = 'The query is too complex.';

function selectionCost(set: SelectionSetNode | undefined, fragments: Map<string, FragmentDefinitionNode>, seen: Set<string>): number {
  if (!set) return 0;
  let cost = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      cost += 1 + selectionCost(selection.selectionSet, fragments, seen);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      cost += selectionCost(selection.selectionSet, fragments, seen);
    } else {
      const name = selection.name.value;
      const fragment = fragments.get(name);
      // A cycle is a validation error of its own; count it as over budget rather than loop.
      if (seen.has(name)) return Number.POSITIVE_INFINITY;
      if (fragment) cost += selectionCost(fragment.selectionSet, fragments, new Set([...seen, name]));
    }
    if (cost > MAX_QUERY_COST) return cost;
  }
  return cost;
}

const costLimitRule: ValidationRule = (context: ValidationContext) => ({
  Document(node: ASTNode) {
    if (node.kind !== Kind.DOCUMENT) return;
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of node.definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    }
    for (const definition of node.definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
      if (selectionCost(definition.selectionSet, fragments, new Set()) > MAX_QUERY_COST) {
        context.reportError(new GraphQLError(QUERY_TOO_COMPLEX, { nodes: [definition] }));
      }
    }
  },
});

/** Extra validation rules: the cost limit always, and no introspection in production. */
export function validationRulesFor(production: boolean): ValidationRule[] {
  return production ? [costLimitRule, NoSchemaIntrospectionCustomRule] : [costLimitRule];
}
