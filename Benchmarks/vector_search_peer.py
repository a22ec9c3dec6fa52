"""The collections section's peers: exact top-10 search over the same unit vectors and queries as
swiftvision-bench, by numpy brute force (one matrix-vector product and a partial sort, one BLAS thread)
and by sqlite-vec 0.1.9 (the SQLite extension Frigate keeps its embeddings in: a vec0 table, cosine
distance, brute force inside SQLite).

Usage: vector_search_peer.py VECTORS QUERIES DIMENSION ITERATIONS [COUNT]
VECTORS and QUERIES are raw little-endian float32 rows of DIMENSION values. Prints one JSON object: for
each peer the median and IQR in ms over the queries (each query timed ITERATIONS times, after a warm-up),
its top 10 row numbers per query, and the peak memory.
"""
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import json  # noqa: E402
import sqlite3  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402

import numpy as np  # noqa: E402
import sqlite_vec  # noqa: E402

from timing import peak_mib, quantile, samples_ms  # noqa: E402

K = 10


def timing(samples):
    return {"median": quantile(samples, 0.5), "iqr": quantile(samples, 0.75) - quantile(samples, 0.25)}


def numpy_peer(vectors, queries, iterations):
    samples, found = [], []
    for query in queries:
        def search():
            scores = vectors @ query
            best = np.argpartition(-scores, K)[:K]
            return best[np.argsort(-scores[best], kind="stable")]
        samples += samples_ms(search, iterations)
        found.append([int(row) for row in search()])
    return {**timing(samples), "top": found}


def sqlite_vec_peer(vectors, queries, iterations, dimension):
    with tempfile.TemporaryDirectory(prefix="swiftvision-bench-vec-") as folder:
        db = sqlite3.connect(os.path.join(folder, "vectors.db"))
        db.enable_load_extension(True)
        sqlite_vec.load(db)
        db.enable_load_extension(False)
        db.execute(f"CREATE VIRTUAL TABLE items USING vec0(embedding float[{dimension}] distance_metric=cosine)")
        with db:
            db.executemany("INSERT INTO items(rowid, embedding) VALUES (?, ?)",
                           ((row + 1, vectors[row].tobytes()) for row in range(len(vectors))))
        # "k = ?" rather than LIMIT: Debian 12's SQLite 3.40 does not hand a LIMIT to virtual tables.
        statement = f"SELECT rowid FROM items WHERE embedding MATCH ? AND k = {K} ORDER BY distance"
        samples, found = [], []
        for query in queries:
            blob = query.tobytes()
            def search():
                return [row - 1 for (row,) in db.execute(statement, (blob,))]
            samples += samples_ms(search, iterations)
            found.append(search())
        version = db.execute("SELECT vec_version()").fetchone()[0]
        db.close()
    return {**timing(samples), "top": found, "version": version}


def main():
    vectors_path, queries_path, dimension, iterations = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    vectors = np.fromfile(vectors_path, dtype="<f4").reshape(-1, dimension)
    queries = np.fromfile(queries_path, dtype="<f4").reshape(-1, dimension)
    if len(sys.argv) > 5 and len(vectors) != int(sys.argv[5]):
        sys.exit(f"{vectors_path} holds {len(vectors)} vectors, not {sys.argv[5]}")
    answer = {"numpy": numpy_peer(vectors, queries, iterations)}
    answer["sqlite_vec"] = sqlite_vec_peer(vectors, queries, iterations, dimension)
    answer["peak_mib"] = peak_mib()
    answer["numpy_version"] = np.__version__
    print(json.dumps(answer))


if __name__ == "__main__":
    main()
