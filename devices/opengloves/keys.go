package opengloves

import "github.com/gloved/gloved/devices"

// The channels of a sample, in the order of Sample.Raw and of the
// layout's sensors: each is one input of the alpha encoding.
const (
	// Curl is the first of the five whole-finger curls, A..E, thumb to
	// little finger.
	Curl = 0
	// Splay is the first of the five splays, (AB)..(EB).
	Splay = 5
	// Joint is the first of the twenty per-joint curls, (AAA)..(EAD):
	// finger f's joint j is Joint+4f+j, j counting from the base (for a
	// finger its metacarpal, MCP, PIP and DIP; for the thumb its
	// metacarpal, MCP and IP, and a fourth the firmware leaves unused).
	Joint = 10
	// JoyX, JoyY and Trigger are the joystick's axes (F, G) and the
	// analog trigger (P).
	JoyX    = 30
	JoyY    = 31
	Trigger = 32
	// Flag is the first of the eight buttons and gestures, H..O in the
	// order of control: full scale while pressed, 0 while not.
	Flag = 33
	// Channels is how many channels a sample carries.
	Channels = 41
)

// Fingers are the five fingers, thumb first, as the keys' first letter
// counts them (A thumb .. E little).
var Fingers = [5]string{"thumb", "index", "middle", "ring", "little"}

// jointNames name a finger's four per-joint channels, from the base; the
// thumb's are named apart (thumbJoints).
var (
	jointNames  = [4]string{"cmc", "mcp", "pip", "dip"}
	thumbJoints = [4]string{"cmc", "mcp", "ip", "unused"}
)

// control returns the control channel c reads: the joystick's axes (F,
// G), the analog trigger (P), and the flags H..O in devices' order of
// buttons (the joystick's click, the trigger's click, the A and B
// buttons, the grab and pinch gestures, the menu and the calibrate
// buttons), which is the encoding's; NotAControl for a finger's channel.
func control(c int) devices.Control {
	switch {
	case c == JoyX:
		return devices.JoystickX
	case c == JoyY:
		return devices.JoystickY
	case c == Trigger:
		return devices.Trigger
	case c >= Flag && c < Flag+devices.NumButtons:
		return devices.FirstButton + devices.Control(c-Flag)
	}
	return devices.NotAControl
}

// kind is what a key is.
type kind uint8

const (
	unknownKey kind = iota
	valueKey        // a channel that carries a number
	flagKey         // a button or gesture: present pressed, absent released
	infoKey         // Z, the info reply's marker
	infoField       // (ZV), (ZG), (ZH): the info reply's fields
)

// lookup resolves a key (a letter, or a bracketed group without its
// brackets) to what it is and, for a value or flag, its channel.
func lookup(key []byte, bracketed bool) (kind, int) {
	if !bracketed {
		switch c := key[0]; {
		case c >= 'A' && c <= 'E':
			return valueKey, Curl + int(c-'A')
		case c == 'F':
			return valueKey, JoyX
		case c == 'G':
			return valueKey, JoyY
		case c >= 'H' && c <= 'O':
			return flagKey, Flag + int(c-'H')
		case c == 'P':
			return valueKey, Trigger
		case c == 'Z':
			return infoKey, 0
		}
		return unknownKey, 0
	}
	f := int(key[0]) - 'A'
	switch {
	case len(key) == 2 && f >= 0 && f < 5 && key[1] == 'B':
		return valueKey, Splay + f
	case len(key) == 3 && f >= 0 && f < 5 && key[1] == 'A' && key[2] >= 'A' && key[2] <= 'D':
		return valueKey, Joint + 4*f + int(key[2]-'A')
	case len(key) == 2 && key[0] == 'Z' && (key[1] == 'V' || key[1] == 'G' || key[1] == 'H'):
		return infoField, int(key[1])
	}
	return unknownKey, 0
}
