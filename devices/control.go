package devices

// Control is what a sensor channel reads when it is one of the glove's
// own controls rather than the hand: a joystick's axis, an analog
// trigger, or a button or gesture the firmware reports pressed (an
// OpenGloves glove's F, G, P and H..O). A control moves no joint; the
// daemon sends the glove's controls on <prefix>/<hand>/controls, each
// read at the sample's full scale (Read).
type Control uint8

// The controls, buttons last in the order the OSC message sends them.
const (
	NotAControl   Control = iota
	JoystickX             // -1 .. 1, mid scale centred
	JoystickY             // -1 .. 1, mid scale centred
	Trigger               // 0 .. 1
	JoystickClick         // a button from here on: pressed (1) or not (0)
	TriggerClick
	AButton
	BButton
	Grab  // the firmware's grab gesture
	Pinch // the firmware's pinch gesture
	Menu
	CalibrateButton
	numControls
)

// FirstButton is the first of the NumButtons buttons.
const (
	FirstButton = JoystickClick
	NumButtons  = int(numControls - FirstButton)
)

var controlNames = [numControls]string{"", "joystick_x", "joystick_y", "trigger",
	"joystick_click", "trigger_click", "a_button", "b_button", "grab", "pinch", "menu", "calibrate_button"}

// String names the control as the OpenGloves layout names its channel.
func (c Control) String() string {
	if c >= numControls {
		return "control?"
	}
	return controlNames[c]
}

// Button reports whether the control is a button (or gesture).
func (c Control) Button() bool { return c >= FirstButton && c < numControls }

// Read reads a raw value of bits resolution (0 reads as 8) as the
// control: an axis 2v/max - 1 (the OpenGloves driver's reading of its
// joystick), the trigger v/max, a button 1 above half scale and 0 at or
// below; max is the full scale 2^bits - 1. A value past full scale
// (never from a driver) reads as full scale.
func (c Control) Read(raw uint16, bits uint8) float64 {
	if bits == 0 {
		bits = Bits8
	}
	max := float64(uint32(1)<<min(bits, 16) - 1)
	v := min(float64(raw)/max, 1)
	switch {
	case c == JoystickX || c == JoystickY:
		return 2*v - 1
	case c.Button():
		if v > 0.5 {
			return 1
		}
		return 0
	}
	return v
}
