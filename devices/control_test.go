package devices

import "testing"

// TestAControlReadsAtItsSamplesFullScale: an axis runs -1 to 1 over the
// full scale of the sample's bits, the trigger 0 to 1, a button is
// pressed above half scale; a value past full scale reads as full scale.
func TestAControlReadsAtItsSamplesFullScale(t *testing.T) {
	for _, tc := range []struct {
		c    Control
		raw  uint16
		bits uint8
		want float64
	}{
		{JoystickX, 0, 12, -1}, {JoystickX, 4095, 12, 1}, {JoystickY, 1023, 10, 1}, {JoystickY, 0, 10, -1},
		{JoystickX, 255, 0, 1}, {JoystickY, 4096, 12, 1},
		{Trigger, 0, 12, 0}, {Trigger, 4095, 12, 1}, {Trigger, 341, 10, 341.0 / 1023}, {Trigger, 9999, 10, 1},
		{AButton, 4095, 12, 1}, {AButton, 2047, 12, 0}, {AButton, 2048, 12, 1}, {CalibrateButton, 1023, 10, 1}, {Grab, 0, 10, 0},
	} {
		if got := tc.c.Read(tc.raw, tc.bits); got != tc.want {
			t.Errorf("%s reads %d at %d bits as %v, want %v", tc.c, tc.raw, tc.bits, got, tc.want)
		}
	}
	if !CalibrateButton.Button() || !JoystickClick.Button() || Trigger.Button() || NotAControl.Button() || numControls.Button() {
		t.Error("the buttons are JoystickClick to CalibrateButton")
	}
}
