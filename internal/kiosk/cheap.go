package kiosk

// The C heap: Mesa's software GL (llvmpipe), GLFW and Xlib allocate with glibc's malloc inside
// the kiosk. Soaked for 500 rounds (packaging/soak-kiosk.sh), the anonymous pages Go did not map
// grew ~6 MB over the first 75 rounds and stayed there (issue 18: ≤ 5 MB from round 10 to 510):
// freed memory glibc kept. Two of its defaults keep it: an arena per thread that allocates (up
// to 8 a core; llvmpipe's painters, GLFW's and Go's threads each fragment their own), and a
// mmap threshold that rises to the largest block freed (a texture's few MB: the next such block
// then comes from an arena and stays resident after it is freed). Bounded here (soaked 110
// rounds: the C side +3 MB from round 10 against +6 MB, the resident set +5 MB against +7 MB);
// malloc_trim after each round changed nothing more, so what is left is live: Mesa's caches.

// #include <malloc.h>
import "C"

func init() {
	C.mallopt(C.M_ARENA_MAX, 2)
	C.mallopt(C.M_MMAP_THRESHOLD, 256<<10) // fixed: a big block is mapped, and unmapped when freed
}
