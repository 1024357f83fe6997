// Package driver is the registry of glove drivers: what a [[hand]]'s
// device key names. A Driver pairs everything gloved needs of one kind of
// glove: its name and keys, the check of their values, its open
// function, whether it is a serial glove (opened by the daemon's reader,
// which waits for it and retries), its sensor layouts with their maps
// onto the hand's joints and shipped calibrations, the parser a recording
// of it is replayed through, its probe for `gloved ports`, and whether
// `gloved calibrate` can calibrate it. Each driver package registers its
// own from its init (Register); package all links the shipped ones in;
// the session, the commands and the replay look them up (Lookup). A new
// glove is a package of its own and one line in package all: nothing
// else in gloved names it.
//
// Source: the registry pattern of Go's database/sql (sql.Register, a
// driver per package registered from its init and linked by a blank
// import), as tailscale's cmd/tailscaled links its optional subsystems;
// the glove drivers a registry must admit besides the CyberGlove, as
// OpenGloves (LucidGloves' firmware protocol: per-finger curl, splay and
// per-joint values in text lines at 115200 baud) and VMC/OSC trackers
// that send joint rotations describe them.
package driver
