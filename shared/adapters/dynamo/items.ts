/** Removes the table's key attributes (and the `entity` the stream filters read) from an item read back, leaving the record. */
export function stripKeys<T>(item: Record<string, unknown>): T {
  const {
    pk: _pk,
    sk: _sk,
    gsi1pk: _g1,
    gsi1sk: _g1s,
    gsi2pk: _g2,
    gsi2sk: _g2s,
    gsi3pk: _g3,
    gsi3sk: _g3s,
    entity: _entity,
    ...rest
  } = item;
  return rest as T;
}
