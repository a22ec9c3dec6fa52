#include "CVisionImaging.h"
#include "OpenCVSupport.hpp"

#include <opencv2/imgproc.hpp>

using namespace shim;

extern "C" {

int svi_match_template(SVImageView image, SVImageView templ, SVImageView scores) {
    return guarded([&] {
        cv::Mat target = asMat(scores);
        cv::matchTemplate(asMat(image), asMat(templ), target, cv::TM_CCOEFF_NORMED);
        return checkedInPlace(target, scores);
    });
}

}  // extern "C"
