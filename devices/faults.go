package devices

import "sync"

// FaultLog keeps a device's fault counters where other goroutines can read
// them: the goroutine that reads the device counts into Counts (no locking
// on its path) and calls Publish when it returns a result; Load, from any
// goroutine (a metrics scrape), returns the counts as last published.
type FaultLog struct {
	Counts Faults // the reading goroutine's own

	mu        sync.Mutex
	published Faults
}

// Publish makes the current counts visible to Load.
func (f *FaultLog) Publish() {
	f.mu.Lock()
	f.published = f.Counts
	f.mu.Unlock()
}

// Load returns the counts as last published.
func (f *FaultLog) Load() Faults {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.published
}
