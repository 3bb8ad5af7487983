// Row types of the feature flags (migrations/20261202000054_features.ts) and the gate keys
// they store, in the order Flipper 0.13 (GitLab 10.8's) lists a feature's gates.

export interface FeatureRow {
  id: number;
  key: string;
  created_at: string;
  updated_at: string;
}

export interface FeatureGateRow {
  id: number;
  feature_id: number;
  key: GateKey;
  value: string;
  created_at: string;
  updated_at: string;
}

/** Flipper's gates: boolean, then the sets (groups, actors), then the two percentages. */
export const GATE_KEYS = ['boolean', 'groups', 'actors', 'percentage_of_actors', 'percentage_of_time'] as const;
export type GateKey = (typeof GATE_KEYS)[number];

/** A feature and its stored gate values, oldest first. */
export interface StoredFeature {
  feature: FeatureRow;
  gates: FeatureGateRow[];
}
