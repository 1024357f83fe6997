package memroom

import (
	"math"
	"testing"
)

// TestRoomIsTheLeastThatAnyLimitLeaves: each limit leaves its limit less
// what the process uses of it, plus the heap the runtime would reuse
// (free heap against every limit, released heap against the address
// space alone, which still maps it); the least is the room, named by its
// limit. No limit, no room to speak of.
func TestRoomIsTheLeastThatAnyLimitLeaves(t *testing.T) {
	const G = 1 << 30
	for _, tc := range []struct {
		name string
		m    Machine
		room uint64
		by   string
		ok   bool
	}{
		{"nothing known", Machine{}, 0, "", false},
		{"only MemAvailable", Machine{Available: 20 * G}, 20 * G, ByAvailable, true},
		{"ulimit -v under MemAvailable", Machine{AddressLimit: 4 * G, AddressUsed: 3 * G, Available: 20 * G}, 1 * G, ByAddressLimit, true},
		{"released heap is room in the address space", Machine{AddressLimit: 4 * G, AddressUsed: 3 * G, HeapReleased: G / 2, Available: 20 * G}, 3 * G / 2, ByAddressLimit, true},
		{"but not in a cgroup", Machine{CgroupLimit: 2 * G, CgroupUsed: G, HeapReleased: G / 2, Available: 20 * G}, G, ByCgroup, true},
		{"free heap is room everywhere", Machine{CgroupLimit: 2 * G, CgroupUsed: G, HeapFree: G / 4, Available: 20 * G}, 5 * G / 4, ByCgroup, true},
		{"the cgroup under ulimit -v", Machine{AddressLimit: 8 * G, AddressUsed: 2 * G, CgroupLimit: 3 * G, CgroupUsed: 1 * G, Available: 20 * G}, 2 * G, ByCgroup, true},
		{"MemAvailable under both", Machine{AddressLimit: 8 * G, AddressUsed: 2 * G, CgroupLimit: 3 * G, CgroupUsed: 1 * G, Available: G}, G, ByAvailable, true},
		{"over a limit already", Machine{AddressLimit: 2 * G, AddressUsed: 3 * G, Available: 20 * G}, 0, ByAddressLimit, true},
		{"no overflow", Machine{AddressLimit: math.MaxUint64 - 1, HeapFree: math.MaxUint64, HeapReleased: 5}, math.MaxUint64, ByAddressLimit, true},
	} {
		room, by, ok := tc.m.Room()
		if room != tc.room || by != tc.by || ok != tc.ok {
			t.Errorf("%s: Room() = %d, %q, %v; want %d, %q, %v", tc.name, room, by, ok, tc.room, tc.by, tc.ok)
		}
	}
}

// TestKBFieldReadsProcLines: the /proc lines Read takes its numbers
// from, in kB; a line missing or garbled is not a number.
func TestKBFieldReadsProcLines(t *testing.T) {
	status := []byte("Name:\tgloved\nVmPeak:\t 1859508 kB\nVmSize:\t  1793900 kB\n")
	if v, ok := kBField(status, "VmSize:"); !ok || v != 1793900*1024 {
		t.Errorf("VmSize: %d, %v", v, ok)
	}
	for _, b := range []string{"", "VmSize:\n", "VmSize: lots kB\n", "VmSize: 99999999999999999999 kB\n"} {
		if v, ok := kBField([]byte(b), "VmSize:"); ok {
			t.Errorf("%q: read %d", b, v)
		}
	}
}

// TestReadSeesThisProcess: on Linux the process has an address space and
// the machine some memory available.
func TestReadSeesThisProcess(t *testing.T) {
	m := Read()
	if m.AddressUsed == 0 || m.Available == 0 {
		t.Errorf("Read() = %+v: no VmSize or MemAvailable", m)
	}
	if _, _, ok := m.Room(); !ok {
		t.Error("no room known")
	}
}

// TestACgroupsFileCacheIsNotUse: the page cache a cgroup holds of files it
// read or wrote (inactive_file in v2's memory.stat, total_inactive_file in
// v1's) is reclaimed before the group is refused memory, so it is not
// counted as used; without it, or unreadable, the use is as read.
func TestACgroupsFileCacheIsNotUse(t *testing.T) {
	for _, tc := range []struct {
		name string
		cur  uint64
		stat string
		want uint64
	}{
		{"v2", 900 << 20, "anon 100000\nfile 800000000\nactive_file 100000\ninactive_file 524288000\n", 900<<20 - 524288000},
		{"v1", 900 << 20, "cache 800000000\ninactive_file 5\ntotal_cache 800000000\ntotal_inactive_file 10\n", 900<<20 - 5},
		{"v1 hierarchy only", 900 << 20, "cache 800000000\ntotal_inactive_file 10\n", 900<<20 - 10},
		{"more cache than use", 100, "inactive_file 400\n", 0},
		{"no stat", 700, "", 700},
		{"garbled", 700, "inactive_file lots\n", 700},
	} {
		if got := inUse(tc.cur, []byte(tc.stat)); got != tc.want {
			t.Errorf("%s: %d in use, want %d", tc.name, got, tc.want)
		}
	}
}
