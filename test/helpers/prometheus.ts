// Parses a Prometheus text exposition with the Prometheus project's own Python client
// (Debian's python3-prometheus-client, installed by `make system-deps`): a strict parser, so a
// malformed line fails the test. Answers each family with its samples.
import { spawn } from 'node:child_process';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: string;
  documentation: string;
  samples: Sample[];
}

const SCRIPT = `
import json, math, sys
from prometheus_client.parser import text_string_to_metric_families
out = []
for f in text_string_to_metric_families(sys.stdin.read()):
    out.append({"name": f.name, "type": f.type, "documentation": f.documentation,
                "samples": [{"name": s.name, "labels": s.labels, "value": None if math.isnan(s.value) else s.value} for s in f.samples]})
print(json.dumps(out))
`;

export function parsePrometheus(text: string): Promise<Family[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/python3', ['-c', SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`the exposition does not parse (or python3-prometheus-client is missing: make system-deps):\n${stderr}`));
      else resolve(JSON.parse(stdout) as Family[]);
    });
    child.stdin.end(text);
  });
}
