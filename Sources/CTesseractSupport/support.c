// Tesseract 5 builds the legacy engine's table of universal ambiguities (about 60 ms of parsing and sorted list
// insertion, a third of `tesseract page.png -`) in every instance it starts, even one started for its LSTM
// engine alone, which never reads it: ambiguities serve the legacy classifier's adaption and segmentation
// search. Tesseract calls the table's loader through its procedure linkage table, so a definition of the same
// symbol in the global scope takes its place; it passes every call on to Tesseract's own, except on a thread
// that started an LSTM-only instance (svt_skip_universal_ambiguities). The orientation finder's legacy instance
// builds the table as before.
#define _GNU_SOURCE
#include "CTesseractSupport.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>

typedef void (*LoadUniversalFunction)(void *ambiguities, const void *encoderSet, void *unicharset);

#define LOAD_UNIVERSAL "_ZN9tesseract13UnicharAmbigs13LoadUniversalERKNS_10UNICHARSETEPS1_"

static _Atomic(LoadUniversalFunction) tesseractLoadUniversal;
static _Thread_local int skipsUniversalAmbiguities;

void svt_set_load_universal(void *function) { atomic_store(&tesseractLoadUniversal, (LoadUniversalFunction)function); }

void svt_skip_universal_ambiguities(int skips) { skipsUniversalAmbiguities = skips; }

/// tesseract::UnicharAmbigs::LoadUniversal(const UNICHARSET &encoder_set, UNICHARSET *unicharset).
void _ZN9tesseract13UnicharAmbigs13LoadUniversalERKNS_10UNICHARSETEPS1_(void *ambiguities, const void *encoderSet,
                                                                     void *unicharset) {
    if (skipsUniversalAmbiguities) return;
    LoadUniversalFunction original = atomic_load(&tesseractLoadUniversal);
    // A Tesseract the host process loaded itself, into the global scope, is found after this library.
    if (original == NULL) original = (LoadUniversalFunction)dlsym(RTLD_NEXT, LOAD_UNIVERSAL);
    if (original != NULL) original(ambiguities, encoderSet, unicharset);
}
