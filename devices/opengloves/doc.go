// Package opengloves drives gloves of the OpenGloves firmware
// (LucidGloves and its kin) over a serial line, USB or Bluetooth
// (/dev/rfcomm*), and registers them as device = "opengloves". The glove
// streams text lines in OpenGloves' alpha encoding, KEY value pairs
// ended by a newline: A..E the whole-finger curls (thumb to little),
// (AB)..(EB) the splays, (AAA)..(EAD) the per-joint curls, F and G the
// joystick, P the analog trigger, and the flags H..O (joystick click,
// trigger, A, B, grab, pinch, menu, calibrate) present while pressed.
// Parser splits the stream into samples of 41 channels (keys.go's
// order) and is what a replay parses recorded bytes with; Layout maps the
// channels onto the hand's joints with the shipped calibration
// (configs/calibration-opengloves.toml); Glove reads the line, answers
// each line the glove sends with one of its own (what Send queued, for
// force feedback, else an empty line), reopens a port that went away and
// counts faults; Probe finds a glove for `gloved ports --probe`;
// AppendLine encodes a line as the firmware does, for the emulator.
//
// The values run from 0 to the firmware's full scale, ANALOG_MAX: 4095
// on an ESP32, 1023 on an AVR board. Nothing on the line says which (the
// info reply, where a firmware sends one, gives its version, type and
// hand only), so it is the hand's options.max, 4095 unless set, as the
// OpenGloves driver's max_analog_value is; a value above it is refused,
// so a 4095 glove read as 1023 fails loudly rather than bending every
// finger past its end.
//
// Source: LucidVR's opengloves-driver (MIT), its alpha encoding
// (server/src/communication/encoding/alpha_encoding_service.cpp: the key
// table, per-joint curls falling back to the finger's curl, splay read as
// (v/max - 0.5) * 2, flags by presence; the hand's bones, joint 0 the
// metacarpal, splay up to 20 degrees, in driver/src/hand_tracking) and
// its communication thread (a line written back after every line read);
// LucidVR's lucidgloves firmware (MIT): AlphaEncoding.cpp (the line it
// sends), AdvancedConfig.h (ANALOG_MAX), Config.h (115200 baud) and
// Main.cpp (with force feedback, a wait of up to a second for the host's
// line after each of its own).
package opengloves
