// libSwiftVisionTesseract.so (the package's SwiftVisionTesseract product): lets LSTM-only Tesseract instances start
// without building the legacy engine's universal ambiguity table. TesseractLibrary opens it into the process's
// global scope before Tesseract, so that Tesseract's own call to UnicharAmbigs::LoadUniversal (made through its
// procedure linkage table) reaches the function here. Its functions are bound with dlsym; the types are in
// CTesseract.h.
#ifndef SWIFTVISION_CTESSERACTSUPPORT_H
#define SWIFTVISION_CTESSERACTSUPPORT_H

/// Gives the library Tesseract's own LoadUniversal, which every call not skipped is passed to.
void svt_set_load_universal(void *function);

/// Whether instances started on the calling thread from now on skip the universal ambiguity table (non-zero)
/// or build it (zero, the default).
void svt_skip_universal_ambiguities(int skips);

#endif
