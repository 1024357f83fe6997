package mesh

// SetRaiseBudget sets how many boxes and leaves the search that raises a
// clearance may measure, and returns what restores it.
func SetRaiseBudget(n int) (restore func()) {
	old := raiseBudget
	raiseBudget = n
	return func() { raiseBudget = old }
}
