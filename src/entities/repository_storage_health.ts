// GitLab 10.8's Entities::RepositoryStorageHealth (GET /circuit_breakers/repository_storage):
// a storage's name, the hosts on which it is failing and the sum of their failures.

/** A storage and its failures per host, as the caller found them. */
export interface StorageHealthView {
  name: string;
  failures: { host: string; count: number }[];
}

export function repositoryStorageHealthEntity(h: StorageHealthView) {
  return {
    storage_name: h.name,
    failing_on_hosts: h.failures.map((f) => f.host),
    total_failures: h.failures.reduce((sum, f) => sum + f.count, 0),
  };
}
