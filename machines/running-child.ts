/**
 * A child that a machine runs for as long as it runs (invoked at its root, or in a state it never
 * leaves): the snapshot's `children` entry is typed `| undefined` (XState cannot know that), so a
 * selector reads it through here instead of a cast. A missing one is a wiring bug, and says so.
 */
export function runningChild<T>(child: T | undefined, id: string): T {
  if (child === undefined) throw new Error(`The "${id}" child is not running`);
  return child;
}
