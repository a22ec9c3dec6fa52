// Whether the codecs' own messages reach standard error (codec_messages.cpp).
#ifndef SWIFTVISION_CODECMESSAGES_HPP
#define SWIFTVISION_CODECMESSAGES_HPP

#include "CVisionShim.h"

namespace shim {

/// True after sv_set_codec_messages(1).
bool codecMessagesShown();

}  // namespace shim

#endif
