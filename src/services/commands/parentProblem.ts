import type { RecordKind } from '../../domain/kinds';
import { withArticle } from '../../domain/words';
import { MAX_TREE_DEPTH, type Placement } from '../../storage/recordTree';

/**
 * What a `parent` that cannot hold record `self` (null: one being created) is instead, as the 400
 * names it; `otherKind` is the kind holding that ID when it is not one of `label`'s records.
 */
export function parentProblem(
  label: RecordKind,
  placement: Exclude<Placement, 'fits'>,
  parent: number,
  self: number | null,
  otherKind: RecordKind | undefined,
): string {
  switch (placement) {
    case 'self':
      return `${withArticle(label)} cannot be its own parent`;
    case 'missing':
      return otherKind
        ? `${parent} is ${withArticle(otherKind)} ID, not ${withArticle(label)} ID`
        : `there is no ${label} with ID ${parent}`;
    case 'cycle':
      return `${label} ${parent} is below ${label} ${self} in the hierarchy: ${withArticle(label)} cannot become its own ancestor`;
    default:
      return `the ${label} hierarchy above ${parent} is more than ${MAX_TREE_DEPTH} levels deep`;
  }
}
