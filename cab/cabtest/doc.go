// Package cabtest builds the default hand's CAB hierarchy for tests and
// benchmarks that descend or refit it without a pipeline.
//
// Source: the hierarchy of H. Schmidl, N. Walker and M. C. Lin, "CAB: Fast
// Update of OBB Trees for Collision Detection between Articulated Bodies",
// Journal of Graphics Tools 9(2), 2004 (section 3.2), as package cab
// builds it.
package cabtest
