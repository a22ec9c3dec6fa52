# SwiftVision's service on Debian 12, set up by the same script as a developer's machine.
#   docker build -t swiftvision .
#   docker run -p 8080:8080 -v swiftvision-cache:/cache:ro swiftvision
# The model cache is filled at build time below; mount a prepared one read-only to share it.
FROM swift:6.3-bookworm AS build
WORKDIR /src
COPY . .
ENV SWIFTVISION_CACHE=/cache
RUN scripts/install-system-packages.sh \
    && swift build -c release -j 2 \
    && .build/release/swiftvision setup \
    && scripts/build-models.sh \
    && scripts/build-zxing.sh

FROM debian:12-slim
ENV SWIFTVISION_CACHE=/cache
COPY --from=build /src/scripts/install-system-packages.sh /usr/local/lib/swiftvision/install-system-packages.sh
RUN /usr/local/lib/swiftvision/install-system-packages.sh \
    && rm -rf /cache/logs
COPY --from=build /usr/lib/swift/linux/*.so /usr/lib/swift/linux/
COPY --from=build /src/.build/release/swiftvision /usr/local/bin/swiftvision
COPY --from=build /src/.build/release/SwiftVision_SwiftVisionServer.resources /usr/local/bin/SwiftVision_SwiftVisionServer.resources
COPY --from=build /cache/lib /cache/lib
COPY --from=build /cache/models /cache/models
RUN echo /usr/lib/swift/linux > /etc/ld.so.conf.d/swift.conf && ldconfig
USER nobody
EXPOSE 8080
HEALTHCHECK CMD ["/bin/sh", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' >&3 && grep -q ok <&3"]
ENTRYPOINT ["swiftvision", "serve", "--host", "0.0.0.0", "--port", "8080"]
