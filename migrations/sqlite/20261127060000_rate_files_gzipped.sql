-- Rate files are kept gzipped (a tenth of their size): storing 5 MB of text copied it three
-- times on its way into the database at every refresh, and the server's memory jumped by ~40 MB.
-- A new table beside the old one, so that replicas of the earlier release, still running during
-- a rolling upgrade, go on sharing their files in `rate_files` (to be dropped by a later release).
-- The files are made again within one interval, so nothing is carried over.
CREATE TABLE rate_files_gzipped (
    kind         TEXT   NOT NULL PRIMARY KEY,
    slot         BIGINT NOT NULL,
    generated_at BIGINT NOT NULL,
    body_gzip    BLOB   NOT NULL
);
