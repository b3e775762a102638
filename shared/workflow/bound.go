package workflow

import (
	"fmt"
	"math"
	"time"
)

// MaxDuration bounds how long an execution of m can run: every Task takes
// its TimeoutSeconds on each attempt, every retrier it has is used up with
// its longest waits, each Catch leads on to the longest path after it, a
// Choice takes its longest branch, and a Map of mapItems items runs
// ⌈mapItems / MaxConcurrency⌉ rounds of its longest iteration, all of it
// capped by the execution's TimeoutSeconds. Job deadlines derive from it:
// an execution still running past it is not running at all. A state that
// carries no bound — a Task without TimeoutSeconds (Step Functions'
// default is a year) or waiting for a task token, a Wait on a path or a
// timestamp, a loop — leaves only the execution's TimeoutSeconds; without
// one it is an error that names the state.
func (m *Machine) MaxDuration(mapItems int) (time.Duration, error) {
	return m.MaxDurationWithout(mapItems)
}

// MaxDurationWithout is MaxDuration with the named states taking no time,
// retries included: the bound of the rest of a machine whose named states
// the caller bounds otherwise (a step that keeps its own deadline).
func (m *Machine) MaxDurationWithout(mapItems int, states ...string) (time.Duration, error) {
	b := bounder{items: max(mapItems, 0), skip: map[string]bool{}}
	for _, s := range states {
		b.skip[s] = true
	}
	secs, err := b.scope(m.root)
	if err != nil {
		if m.timeout > 0 {
			return m.timeout, nil
		}
		return 0, err
	}
	d := time.Duration(secs * float64(time.Second))
	if m.timeout > 0 {
		d = min(d, m.timeout)
	}
	return d, nil
}

type bounder struct {
	items int
	skip  map[string]bool
}

// scope is the longest path from the scope's start, in seconds.
func (b bounder) scope(sc *scope) (float64, error) {
	memo := map[string]float64{}
	onPath := map[string]bool{}
	var from func(name string) (float64, error)
	from = func(name string) (float64, error) {
		if v, ok := memo[name]; ok {
			return v, nil
		}
		if onPath[name] {
			return 0, fmt.Errorf("workflow: state %q is on a loop, so no duration bounds the execution", name)
		}
		onPath[name] = true
		defer delete(onPath, name)
		st := sc.states[name]
		own, err := b.state(st)
		if err != nil {
			return 0, err
		}
		var nexts []string
		switch {
		case st.typ == "Choice":
			for _, c := range st.choices {
				nexts = append(nexts, c.next)
			}
			if st.defaultNext != "" {
				nexts = append(nexts, st.defaultNext)
			}
		case !st.end && st.next != "":
			nexts = append(nexts, st.next)
		}
		for _, c := range st.catch {
			nexts = append(nexts, c.next)
		}
		longest := 0.0
		for _, n := range nexts {
			v, err := from(n)
			if err != nil {
				return 0, err
			}
			longest = max(longest, v)
		}
		memo[name] = own + longest
		return own + longest, nil
	}
	return from(sc.startAt)
}

// state is the longest one state takes, its retries included, in seconds.
func (b bounder) state(st *state) (float64, error) {
	if b.skip[st.name] {
		return 0, nil
	}
	var once float64
	switch st.typ {
	case "Task":
		if st.waitForToken || st.timeoutSecondsPath != nil || st.timeoutSeconds <= 0 {
			return 0, fmt.Errorf("workflow: Task %q has no TimeoutSeconds, so no duration bounds it", st.name)
		}
		once = float64(st.timeoutSeconds)
	case "Wait":
		if st.seconds == nil {
			return 0, fmt.Errorf("workflow: Wait %q waits on a path or a timestamp, so no duration bounds it", st.name)
		}
		once = float64(*st.seconds)
	case "Map":
		per, err := b.scope(st.processor)
		if err != nil {
			return 0, err
		}
		conc := st.maxConcurrency
		if conc == 0 || conc > defaultMapConc {
			conc = defaultMapConc
		}
		once = per * math.Ceil(float64(b.items)/float64(conc))
	}
	total := once
	for _, r := range st.retry {
		for k := range r.maxAttempts {
			wait := r.interval * math.Pow(r.backoffRate, float64(k))
			if r.maxDelay > 0 {
				wait = min(wait, r.maxDelay)
			}
			total += wait + once
		}
	}
	return total, nil
}
