'use strict';
// aws-local-stepfunctions 3 declares Node >= 22 and calls Promise.withResolvers
// (new in Node 22) in every Task state; on Node 20 each task would fail with a
// TypeError that Retry/Catch then treat as a task error. Load this file with
// NODE_OPTIONS=--require <path> before the library (shared/workflow/workflowtest
// does). It defines only what is missing, so Node 22+ is unaffected.
if (typeof Promise.withResolvers !== 'function') {
  Object.defineProperty(Promise, 'withResolvers', {
    configurable: true,
    writable: true,
    value: function withResolvers() {
      let resolve;
      let reject;
      const promise = new this((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    },
  });
}
