// GitLab 10.8's Blob entity of a blob search (Gitlab::SearchResults::FoundBlob): `basename,
// data, filename, id, ref, startline, project_id`. A content hit's `basename` is its path
// without the extension and its `id` null (parse_search_result set neither); a hit by file
// name has the file's name as `basename` and its blob id. 10.8 left `project_id` out of name
// hits (a slip later GitLab fixed); both carry it here. `ref` is the ref searched, as named.
export interface BlobHit {
  path: string;
  startline: number;
  data: string;
  id: string | null;
}

function withoutExtension(path: string): string {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  return dot > slash + 1 ? path.slice(0, dot) : path;
}

export function searchBlobEntity(hit: BlobHit, ref: string, projectId: number) {
  return {
    basename: hit.id === null ? withoutExtension(hit.path) : hit.path.slice(hit.path.lastIndexOf('/') + 1),
    data: hit.data,
    filename: hit.path,
    id: hit.id,
    ref,
    startline: hit.startline,
    project_id: projectId,
  };
}
