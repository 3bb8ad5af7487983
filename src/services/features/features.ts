// Setting and removing feature flags (GitLab 10.8's API::Features over Flipper 0.13's
// ActiveRecord adapter). Setting a gate persists the feature first. `true` turns the boolean
// gate on — or, given a feature group and/or a user, adds them to the groups / actors sets
// ("User:<id>"); `false` clears every gate — or removes the given group / user from its set;
// a percentage replaces the percentage-of-time gate (targets are not used then). Removing a
// feature deletes it and its gates (nothing to remove is no error). CE 10.8 registers no
// feature groups and Flipper takes any name, so any group name is stored as given. A user
// that does not exist is `404 User Not Found` (10.8 fails with a 500 there), checked before
// anything is written.
import type { Conn } from '../../store/db.js';
import type { FeatureRow, GateKey, StoredFeature } from '../../store/feature_rows.js';
import { Invalid, NotFound } from '../../store/domain_errors.js';
import { now } from '../../store/time.js';
import { findFeature } from '../../finders/features.js';
import { findUserByUsername } from '../../finders/users.js';
import { gateValue } from './gate_value.js';

export interface GateInput {
  value: string;
  featureGroup?: string;
  user?: string;
}

type Target = { key: Extract<GateKey, 'groups' | 'actors'>; value: string };

const MAX_KEY = 255;
const tooLong = [`is too long (maximum is ${MAX_KEY} characters)`];

async function targetsOf(db: Conn, input: GateInput): Promise<Target[]> {
  const targets: Target[] = [];
  if (input.featureGroup !== undefined) targets.push({ key: 'groups', value: input.featureGroup });
  if (input.user !== undefined) {
    const user = await findUserByUsername(db, input.user);
    if (!user) throw new NotFound('User');
    targets.push({ key: 'actors', value: `User:${user.id}` });
  }
  return targets;
}

async function persisted(tx: Conn, name: string): Promise<FeatureRow> {
  const stamp = now();
  await tx('features').insert({ key: name, created_at: stamp, updated_at: stamp }).onConflict('key').ignore();
  await tx('features').where({ key: name }).update({ updated_at: stamp });
  return tx('features').where({ key: name }).first();
}

async function setSingle(tx: Conn, feature: FeatureRow, key: GateKey, value: string): Promise<void> {
  const stamp = now();
  await tx('feature_gates').where({ feature_id: feature.id, key }).delete();
  await tx('feature_gates').insert({ feature_id: feature.id, key, value, created_at: stamp, updated_at: stamp });
}

async function addTarget(tx: Conn, feature: FeatureRow, t: Target): Promise<void> {
  const stamp = now();
  await tx('feature_gates')
    .insert({ feature_id: feature.id, key: t.key, value: t.value, created_at: stamp, updated_at: stamp })
    .onConflict(['feature_id', 'key', 'value'])
    .ignore();
}

export async function setFeatureGate(db: Conn, name: string, input: GateInput): Promise<StoredFeature> {
  if (name.length > MAX_KEY) throw new Invalid({ name: tooLong });
  if ((input.featureGroup?.length ?? 0) > MAX_KEY) throw new Invalid({ feature_group: tooLong });
  const value = gateValue(input.value);
  const targets = typeof value === 'boolean' ? await targetsOf(db, input) : [];
  await db.transaction(async (tx) => {
    const feature = await persisted(tx, name);
    if (typeof value === 'number') await setSingle(tx, feature, 'percentage_of_time', String(value));
    else if (value && !targets.length) await setSingle(tx, feature, 'boolean', 'true');
    else if (!targets.length) await tx('feature_gates').where({ feature_id: feature.id }).delete();
    else
      for (const t of targets) {
        if (value) await addTarget(tx, feature, t);
        else await tx('feature_gates').where({ feature_id: feature.id, key: t.key, value: t.value }).delete();
      }
  });
  return (await findFeature(db, name))!;
}

export async function removeFeature(db: Conn, name: string): Promise<void> {
  await db.transaction(async (tx) => {
    const feature: FeatureRow | undefined = await tx('features').where({ key: name }).first();
    if (!feature) return;
    await tx('feature_gates').where({ feature_id: feature.id }).delete();
    await tx('features').where({ id: feature.id }).delete();
  });
}
