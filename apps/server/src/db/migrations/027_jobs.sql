-- The job scheduler (issue 22, docs/jobs.md) on the scheduler core (013): jobs and DAG workflows
-- as PowerJob knows them, with the server nodes as the workers.
--
-- Exactly once: a timed job owns one recurring trigger (`job:<id>`); the node that claims an
-- occurrence inserts its instance and moves the trigger to its next fire time in the claim's
-- transaction (the core's inline processors), and an instance of a schedule is unique per (job,
-- expected trigger time), so two nodes can never both make one. An instance runs from a one-off
-- trigger of its own (`job-instance:<id>`): leased to one node, taken over by another when that
-- node dies. The entity declarations (packages/contract/src/entities/jobs/) add their other
-- columns and references; this migration makes what they cannot: checks, partial uniqueness,
-- the nodes' registry, logs and sub-tasks.

-- A trigger only one node may claim (a broadcast instance's task for that node).
ALTER TABLE scheduler_trigger ADD COLUMN pinned_node text;

-- The server nodes (/appmonitor): each writes its row every few seconds. Not a tenant's table:
-- read by the system connection, never by tenants directly.
CREATE TABLE scheduler_node (
  node text PRIMARY KEY,
  address text NOT NULL,
  version text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now(),
  load1 double precision NOT NULL DEFAULT 0,
  cpu_cores integer NOT NULL DEFAULT 1,
  memory_free_gb double precision NOT NULL DEFAULT 0,
  disk_free_gb double precision NOT NULL DEFAULT 0,
  running integer NOT NULL DEFAULT 0
);

CREATE TABLE job_info (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  job_name text NOT NULL,
  time_expression_type text NOT NULL
    CONSTRAINT job_info_time_expression_type_check
    CHECK (time_expression_type IN ('CRON', 'FIXED_RATE', 'FIXED_DELAY', 'API', 'WORKFLOW')),
  execute_type text NOT NULL DEFAULT 'STANDALONE'
    CONSTRAINT job_info_execute_type_check
    CHECK (execute_type IN ('STANDALONE', 'BROADCAST', 'MAP', 'MAP_REDUCE')),
  processor_type text NOT NULL
);
CREATE UNIQUE INDEX job_info_tenant_id_id_key ON job_info (tenant_id, id);

CREATE TABLE workflow_info (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  wf_name text NOT NULL,
  time_expression_type text NOT NULL DEFAULT 'API'
    CONSTRAINT workflow_info_time_expression_type_check
    CHECK (time_expression_type IN ('CRON', 'FIXED_RATE', 'FIXED_DELAY', 'API')),
  dag jsonb NOT NULL DEFAULT '{"nodes": [], "edges": []}'::jsonb,
  -- Bumped by every DAG save: a run keeps the version it started with.
  dag_version integer NOT NULL DEFAULT 1
);
CREATE UNIQUE INDEX workflow_info_tenant_id_id_key ON workflow_info (tenant_id, id);

CREATE TABLE workflow_instance (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  workflow_id bigint NOT NULL,
  status text NOT NULL DEFAULT 'WAITING'
    CONSTRAINT workflow_instance_status_check
    CHECK (status IN ('WAITING', 'RUNNING', 'FAILED', 'SUCCEED', 'STOPPED')),
  trigger_type text NOT NULL DEFAULT 'API',
  expected_trigger_time timestamptz NOT NULL DEFAULT now(),
  context jsonb NOT NULL DEFAULT '{}'::jsonb,
  dag jsonb NOT NULL,
  dag_version integer NOT NULL DEFAULT 1
);
CREATE UNIQUE INDEX workflow_instance_tenant_id_id_key ON workflow_instance (tenant_id, id);
-- A workflow's schedule fires once per occurrence, whichever node claims it.
CREATE UNIQUE INDEX workflow_instance_fire_once ON workflow_instance (workflow_id, expected_trigger_time)
  WHERE trigger_type = 'SCHEDULE';

CREATE TABLE job_instance (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  job_id bigint NOT NULL,
  status text NOT NULL DEFAULT 'WAITING_DISPATCH'
    CONSTRAINT job_instance_status_check
    CHECK (status IN ('WAITING_DISPATCH', 'WAITING_WORKER_RECEIVE', 'RUNNING', 'FAILED',
                      'SUCCEED', 'CANCELED', 'STOPPED')),
  trigger_type text NOT NULL
    CONSTRAINT job_instance_trigger_type_check CHECK (trigger_type IN ('SCHEDULE', 'API', 'WORKFLOW')),
  expected_trigger_time timestamptz NOT NULL,
  running_times integer NOT NULL DEFAULT 0,
  -- Runs that failed (a timeout, an error): retried until they pass the job's retries. A run
  -- taken over from a node that died is not a failure of the work and is not counted.
  failed_attempts integer NOT NULL DEFAULT 0,
  -- The job as it was when the instance was made (processor, params, limits): an edit never
  -- changes a run under way.
  job_snapshot jsonb NOT NULL,
  wf_instance_id bigint,
  wf_node_id text
);
CREATE UNIQUE INDEX job_instance_tenant_id_id_key ON job_instance (tenant_id, id);
-- Exactly once: one instance per occurrence of a job's schedule, whatever the nodes do.
CREATE UNIQUE INDEX job_instance_fire_once ON job_instance (job_id, expected_trigger_time)
  WHERE trigger_type = 'SCHEDULE';
-- The instances not ended of a job (maxInstanceNum), and a job's newest first (lists).
CREATE INDEX job_instance_open ON job_instance (job_id) WHERE status IN
  ('WAITING_DISPATCH', 'WAITING_WORKER_RECEIVE', 'RUNNING');
CREATE INDEX job_instance_newest ON job_instance (tenant_id, job_id, expected_trigger_time DESC);

-- An instance's log lines (instance details), written by the node running it.
CREATE TABLE job_instance_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  instance_id bigint NOT NULL REFERENCES job_instance(id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT clock_timestamp(),
  level text NOT NULL DEFAULT 'info' CHECK (level IN ('info', 'warn', 'error')),
  node text NOT NULL,
  line text NOT NULL
);
CREATE INDEX job_instance_log_instance ON job_instance_log (instance_id, id);

-- The sub-tasks of a broadcast (one per node), map or map-reduce instance (one per piece of
-- work), each run from a trigger of its own (`job-task:<id>`); the last to end ends the instance.
CREATE TABLE job_subtask (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  instance_id bigint NOT NULL REFERENCES job_instance(id) ON DELETE CASCADE,
  task_name text NOT NULL,
  payload jsonb NOT NULL DEFAULT '{}'::jsonb,
  status text NOT NULL DEFAULT 'WAITING_DISPATCH'
    CHECK (status IN ('WAITING_DISPATCH', 'WAITING_WORKER_RECEIVE', 'RUNNING', 'FAILED',
                      'SUCCEED', 'CANCELED', 'STOPPED')),
  node text,
  attempts integer NOT NULL DEFAULT 0,
  start_time timestamptz,
  finished_time timestamptz,
  result text,
  UNIQUE (instance_id, task_name)
);

CREATE TABLE workflow_node_instance (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  wf_instance_id bigint NOT NULL,
  node_id text NOT NULL,
  status text NOT NULL DEFAULT 'WAITING'
    CONSTRAINT workflow_node_instance_status_check
    CHECK (status IN ('WAITING', 'RUNNING', 'SUCCEED', 'FAILED', 'SKIPPED', 'BLOCKED', 'STOPPED')),
  -- A node is made once per run, whichever node ends its predecessors.
  CONSTRAINT workflow_node_instance_once UNIQUE (wf_instance_id, node_id)
);
CREATE UNIQUE INDEX workflow_node_instance_tenant_id_id_key ON workflow_node_instance (tenant_id, id);
