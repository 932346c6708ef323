package main

// Two unexported methods of Kueue's scheduler, reached by a pull-only go:linkname (Go 1.23's linkname
// restriction covers standard-library symbols only): one admission cycle, and the hook Kueue's own
// scheduler_test.go uses to wait for the asynchronous status writes of an admission
// (sigs.k8s.io/kueue@v0.17.0/pkg/scheduler/scheduler.go, schedule and setAdmissionRoutineWrapper).

import (
	"context"
	_ "unsafe" // go:linkname

	"sigs.k8s.io/kueue/pkg/scheduler"
	"sigs.k8s.io/kueue/pkg/util/routine"
	"sigs.k8s.io/kueue/pkg/util/wait"
)

//go:linkname scheduleOnce sigs.k8s.io/kueue/pkg/scheduler.(*Scheduler).schedule
func scheduleOnce(s *scheduler.Scheduler, ctx context.Context) wait.SpeedSignal

//go:linkname setAdmissionRoutineWrapper sigs.k8s.io/kueue/pkg/scheduler.(*Scheduler).setAdmissionRoutineWrapper
func setAdmissionRoutineWrapper(s *scheduler.Scheduler, w routine.Wrapper)
