// GitLab 10.8's Entities::Feature and FeatureGate, as Flipper 0.13 computes them: `name`,
// `state` and `gates` ({key, value}) in Flipper's gate order. Every gate has a value, so the
// boolean one is always shown (false when unset); a set (groups, actors) is shown when it
// has members, a percentage when it is not 0. The state is 'on' when the boolean gate is on
// or a percentage is 100, 'conditional' when another gate lets anything through, else 'off'.
import { GATE_KEYS, type GateKey, type StoredFeature } from '../store/feature_rows.js';

type GateValue = boolean | number | string[];

function valuesOf(stored: StoredFeature): Record<GateKey, GateValue> {
  const rows = (key: GateKey) => stored.gates.filter((g) => g.key === key).map((g) => g.value);
  const percentage = (key: GateKey) => Number(rows(key).at(-1) ?? 0);
  return {
    boolean: rows('boolean').at(-1) === 'true',
    groups: rows('groups'),
    actors: rows('actors'),
    percentage_of_actors: percentage('percentage_of_actors'),
    percentage_of_time: percentage('percentage_of_time'),
  };
}

const shown = (value: GateValue) => (typeof value === 'number' ? value !== 0 : Array.isArray(value) ? value.length > 0 : true);

function stateOf(v: Record<GateKey, GateValue>): 'on' | 'off' | 'conditional' {
  if (v.boolean === true || v.percentage_of_actors === 100 || v.percentage_of_time === 100) return 'on';
  return GATE_KEYS.some((k) => k !== 'boolean' && shown(v[k])) ? 'conditional' : 'off';
}

export function featureEntity(stored: StoredFeature) {
  const values = valuesOf(stored);
  return {
    name: stored.feature.key,
    state: stateOf(values),
    gates: GATE_KEYS.filter((key) => shown(values[key])).map((key) => ({ key, value: values[key] })),
  };
}
