// The persisted feature flags with their gate values (Flipper's `Feature.all` and
// `Feature.get`): features in the order they were first set, each gate's values oldest first.
import type { Conn } from '../store/db.js';
import type { FeatureGateRow, FeatureRow, StoredFeature } from '../store/feature_rows.js';

async function withGates(db: Conn, features: FeatureRow[]): Promise<StoredFeature[]> {
  if (features.length === 0) return [];
  const gates: FeatureGateRow[] = await db('feature_gates')
    .whereIn(
      'feature_id',
      features.map((f) => f.id),
    )
    .orderBy('id', 'asc');
  return features.map((feature) => ({ feature, gates: gates.filter((g) => g.feature_id === feature.id) }));
}

export async function allFeatures(db: Conn): Promise<StoredFeature[]> {
  return withGates(db, await db('features').orderBy('id', 'asc'));
}

export async function findFeature(db: Conn, name: string): Promise<StoredFeature | undefined> {
  const feature: FeatureRow | undefined = await db('features').where({ key: name }).first();
  return feature ? (await withGates(db, [feature]))[0] : undefined;
}
