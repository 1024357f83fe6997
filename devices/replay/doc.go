// Package replay plays a glove's recording back as a device, through the
// glove's own driver. The recording's header names the driver (its
// model), whose Parser reads the recorded port bytes as the live driver
// read them, so a replay yields the samples the live glove did, with the
// times they arrived; a glove that records its samples (the simulation)
// is replayed sample by sample. It registers the "replay" driver (device
// = "replay"), and imports devices/all so that a replay reads every
// shipped glove's recordings.
//
// Source: the recording format (package recording); the registry pattern
// of Go's database/sql (sql.Register, a driver per package registered
// from its init), as tailscale's cmd/tailscaled wires its subsystems.
package replay
