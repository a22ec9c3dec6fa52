#include "CTesseract.h"

#include <stdlib.h>

// Tesseract spreads its work over OpenMP threads, which spin while they wait for each other. SwiftVision
// runs one recogniser per core instead (the model store's pool of instances), and on a small machine the
// spinning threads of several recognisers (or of one beside the models) take more time than they save:
// page.png on 2 cores takes 0.61-0.76 s with OpenMP's default and 0.25 s with one thread, for the same
// words. So OpenMP gets one thread unless the user chose a limit. libgomp reads the variable when it is
// loaded, which is when Tesseract is (dlopen, on first use); this runs before main, while the process
// has a single thread.
__attribute__((constructor)) static void limitOpenMPThreads(void) { setenv("OMP_THREAD_LIMIT", "1", 0); }
