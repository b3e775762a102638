// Runs one execution of a state machine in aws-local-stepfunctions (the
// third-party ASL interpreter) with every Task state served by a Go step
// handler over HTTP. Driven by shared/workflow/workflowtest.RunInAWSLocal,
// which compares the outcome with the in-process runner; not a tool for people
// (the package's own CLI mangles output, hence its JS API here).
//
//   node sfn-run.mjs request.json result.json
//
// request.json: {definition, input, endpoint, executionName, retryScale, validate}
// result.json:  {ok: true, output} | {ok: false, error, cause} | {harnessError}
//
// Needs Promise.withResolvers on Node 20: NODE_OPTIONS=--require ./node20-polyfills.cjs
import { readFile, writeFile } from 'node:fs/promises';
import { StateMachine, ExecutionError, ExecutionTimeoutError } from 'aws-local-stepfunctions';

const [requestPath, resultPath] = process.argv.slice(2);

async function finish(result, code = 0) {
  await writeFile(resultPath, JSON.stringify(result));
  // fetch keeps sockets alive; exit instead of waiting for them to idle out.
  process.exit(code);
}

if (typeof Promise.withResolvers !== 'function') {
  await finish({ harnessError: 'Promise.withResolvers is missing: load node20-polyfills.cjs with NODE_OPTIONS=--require' }, 2);
}

const req = JSON.parse(await readFile(requestPath, 'utf8'));
const scale = req.retryScale;

// The library overrides tasks, waits and retry pauses by state name, at any
// nesting depth (Map iterations run with the same run options), so collect
// them from the whole definition. State names are unique machine-wide.
const tasks = {};
const waitOverrides = {};
const retryOverrides = {};
function collect(machine) {
  for (const [name, state] of Object.entries(machine.States)) {
    if (state.Type === 'Task') tasks[name] = state.Resource;
    if (state.Type === 'Wait') {
      // Seconds is scaled like the Go runner does; *Path and Timestamp waits
      // are not known before the run and pass at once.
      waitOverrides[name] = state.Seconds !== undefined ? state.Seconds * 1000 * scale : 0;
    }
    // One constant pause per retrier: IntervalSeconds scaled, without the
    // backoff growth (the library's override has no backoff). Pauses only
    // change timing, never the outcome.
    if (state.Retry) retryOverrides[name] = state.Retry.map((r) => (r.IntervalSeconds ?? 1) * 1000 * scale);
    if (state.Type === 'Map') collect(state.ItemProcessor ?? state.Iterator);
    if (state.Type === 'Parallel') state.Branches.forEach(collect);
  }
}
collect(req.definition);

let harnessFailure = null;

// Each override POSTs the task input to Go. A Go error comes back as its
// aws-lambda-go error name and Lambda-style cause; throwing an Error with that
// name is what the library's Retry/Catch compare ErrorEquals with
// (error.name), and its message becomes the Cause of a caught error.
const handlers = {};
for (const [state, resource] of Object.entries(tasks)) {
  handlers[state] = async (input) => {
    let body;
    try {
      const res = await fetch(req.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ state, resource, input: input === undefined ? null : input }),
      });
      body = await res.json();
      if (!res.ok) throw new Error(body.harnessError ?? `HTTP ${res.status}`);
    } catch (e) {
      harnessFailure ??= `task ${state}: ${e?.message ?? e}`;
      throw e;
    }
    if (body.error) {
      const err = new Error(body.error.cause);
      err.name = body.error.name;
      throw err;
    }
    return body.output;
  };
}

let result;
try {
  // validate: false when the caller already had this very definition
  // validated by the library (it costs ~0.3 s of schema compilation).
  // checkArn is off: every Task is overridden, so Resource is only a routing
  // key here (locally "step-settle" rather than an ARN); asl-validator checks
  // the deployed file's Resources.
  const validationOptions = req.validate ? { checkArn: false, checkPaths: true } : { noValidate: true };
  const machine = new StateMachine(req.definition, { validationOptions });
  const execution = machine.run(req.input, {
    overrides: {
      taskResourceLocalHandlers: handlers,
      waitTimeOverrides: waitOverrides,
      retryIntervalOverrides: retryOverrides,
    },
    // Task.Token: a placeholder the Go harness swaps for a token it issued
    // (the library has no callbacks; .waitForTaskToken tasks are answered
    // through the Go side).
    context: { Execution: { Name: req.executionName }, ...(req.taskToken ? { Task: { Token: req.taskToken } } : {}) },
  });
  result = { ok: true, output: (await execution.result) ?? null };
} catch (e) {
  if (e instanceof ExecutionError) {
    result = { ok: false, error: e.cause?.name ?? 'Error', cause: e.cause?.message ?? '' };
  } else if (e instanceof ExecutionTimeoutError) {
    result = { ok: false, error: 'States.Timeout', cause: e.message };
  } else {
    result = { harnessError: String(e?.stack ?? e) };
  }
}
if (harnessFailure) result = { harnessError: harnessFailure };
await finish(result);
